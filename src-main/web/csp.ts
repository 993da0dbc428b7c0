/**
 * The renderer's Content Security Policy: the one source for the HTTP header the browser host
 * and the Electron window send with every page, and for the `<meta>` element the build writes
 * into index.html (rendererCspPlugin), so the two cannot drift apart. Stream content is
 * untrusted: no inline script, no eval, no remote loads of any kind; images only from the app
 * itself, data: URIs (tool-result images) and blob: (charts, exports). Styles allow
 * 'unsafe-inline' because Monaco injects its styles at run time.
 */

type Directive = [string, ...string[]];

/** Directives a `<meta>` element cannot carry (browsers ignore them there, with a warning). */
const HEADER_ONLY: ReadonlySet<string> = new Set(['frame-ancestors']);

/**
 * What the meta policy lets the page connect to besides 'self': the browser host's socket on
 * loopback. The port is chosen at run time, so the meta allows any; the header names the one.
 */
export const META_CONNECT: readonly string[] = ['ws://127.0.0.1:*', 'ws://localhost:*'];

function directives(connect: readonly string[]): Directive[] {
  return [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'blob:'],
    ['font-src', "'self'", 'data:'],
    ['connect-src', "'self'", ...connect],
    ['worker-src', "'self'", 'blob:'],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
  ];
}

const serialise = (list: readonly Directive[]): string => list.map((d) => d.join(' ')).join('; ');

/** The header policy; `connect` adds the exact socket origins the page may open. */
export function contentSecurityPolicy(options: { connect?: readonly string[] } = {}): string {
  return serialise(directives(options.connect ?? []));
}

/** The same policy as a `<meta>` element carries it: header-only directives dropped. */
export function metaContentSecurityPolicy(): string {
  return serialise(directives(META_CONNECT).filter(([name]) => !HEADER_ONLY.has(name)));
}

/** What index.html holds in place of the policy; the build replaces it. */
export const CSP_PLACEHOLDER = '%RENDERER_CSP%';

/** index.html with its meta policy written in. Throws if the placeholder is missing, so a build cannot ship without one. */
export function withMetaCsp(html: string): string {
  if (!html.includes(CSP_PLACEHOLDER))
    throw new Error(`index.html has no ${CSP_PLACEHOLDER} in its Content-Security-Policy meta element`);
  return html.replaceAll(CSP_PLACEHOLDER, metaContentSecurityPolicy());
}

/** A Vite plugin writing the meta policy into index.html (build and dev server alike). */
export function rendererCspPlugin(): { name: string; transformIndexHtml: (html: string) => string } {
  return { name: 'renderer-csp', transformIndexHtml: withMetaCsp };
}
