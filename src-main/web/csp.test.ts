import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, CSP_PLACEHOLDER, META_CONNECT, metaContentSecurityPolicy, withMetaCsp } from './csp';

const root = join(import.meta.dirname, '../..');

/** A policy as directive name → sources. */
function parse(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** The content of the CSP meta element of a page. */
function metaPolicy(html: string): string {
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i.exec(html);
  if (!match?.[1]) throw new Error('no CSP meta element');
  return match[1];
}

describe('the meta CSP and the header CSP agree', () => {
  const source = readFileSync(join(root, 'src-renderer/index.html'), 'utf8');
  const meta = parse(metaPolicy(withMetaCsp(source)));

  it("index.html takes its meta policy from src-main/web/csp.ts, the header's source", () => {
    expect(metaPolicy(source)).toBe(CSP_PLACEHOLDER);
    expect(metaPolicy(withMetaCsp(source))).toBe(metaContentSecurityPolicy());
    expect(() => withMetaCsp('<meta http-equiv="Content-Security-Policy" content="default-src *">')).toThrow(
      /has no %RENDERER_CSP%/,
    );
  });

  it.each([
    ['the browser host', contentSecurityPolicy({ connect: ['ws://127.0.0.1:41234', 'ws://localhost:41234'] })],
    ['the Electron window', contentSecurityPolicy()],
  ])(
    '%s: every directive the same, except that the header also forbids framing and names its socket port',
    (_host, header) => {
      const headerDirectives = parse(header);
      expect(headerDirectives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(meta.has('frame-ancestors')).toBe(false);
      for (const [name, sources] of headerDirectives) {
        if (name === 'frame-ancestors' || name === 'connect-src') continue;
        expect(meta.get(name), name).toEqual(sources);
      }
      expect([...meta.keys()].filter((name) => !headerDirectives.has(name))).toEqual([]);
      // The header's sockets are among the meta's (any loopback port), nothing more.
      const connect = headerDirectives.get('connect-src') ?? [];
      expect(connect[0]).toBe("'self'");
      for (const origin of connect.slice(1))
        expect(META_CONNECT.some((pattern) => origin.startsWith(pattern.slice(0, -1)))).toBe(true);
    },
  );

  it('is strict: no inline script, no eval, no remote origins', () => {
    for (const policy of [metaContentSecurityPolicy(), contentSecurityPolicy()]) {
      expect(policy).not.toMatch(/'unsafe-eval'|https?:|(^|\s)\*(\s|;|$)|script-src[^;]*'unsafe-inline'/);
      expect(parse(policy).get('object-src')).toEqual(["'none'"]);
    }
  });
});
