import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, providerFixturePath, readFixture } from '../testing/fixtures';
import { runCli } from './test-io';

const run = (args: string[], stdin?: string | Uint8Array) => runCli(args, stdin === undefined ? {} : { stdin });

interface Report {
  status: { kind: string; label: string; reason: string };
  failOn: string;
  failures: string[];
}

// Inside a data line (at 3,000 bytes the cut would follow a whole line, which is decoded: sse.unterminated-last-event).
const CUT = readFixture('json_stream.json.sse').subarray(0, 2990);

describe('inspect shows how the stream ended, and a truncated or error-ended stream fails', () => {
  it.each([
    ['json_stream.json.sse', 'done', 0],
    ['error_midstream.json.sse', 'error', 1],
    ['retry_midstream.json.sse', 'truncated', 1],
    ['frontend_tools.json.sse', 'paused', 0],
  ])('%s: %s, exit %i', async (fixture, kind, exit) => {
    const json = await run(['inspect', '--json', fixturePath(fixture)]);
    expect(json.code).toBe(exit);
    expect((JSON.parse(json.out) as Report).status.kind).toBe(kind);
    const text = await run(['inspect', fixturePath(fixture)]);
    expect(text.code).toBe(exit);
    expect(text.out).toMatch(/^Status: /m);
    expect(text.out).not.toMatch(/complete —/);
  });

  it('a stream cut inside an event is truncated, exits 1 and says why in text and JSON', async () => {
    const text = await run(['inspect', '-'], CUT);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^Status: truncated — The stream was cut inside an event after 22 complete events\.$/m);
    // The cut event and the text block it leaves open are data lost: error findings too.
    expect(text.out).toMatch(/^Fails \(--fail-on error,end\): 2 error findings; the stream is truncated\.$/m);
    const json = JSON.parse((await run(['inspect', '--json', '-'], CUT)).out) as Report;
    expect(json).toMatchObject({
      status: { kind: 'truncated', label: 'truncated' },
      failOn: 'error,end',
      failures: ['2 error findings', 'the stream is truncated'],
    });
  });

  it('a message cut short by max_tokens ends incomplete: it fails --fail-on end, not --fail-on error', async () => {
    const path = providerFixturePath('anthropic-messages/max-tokens.sse');
    const text = await run(['inspect', path]);
    expect(text.code).toBe(1);
    expect(text.out).toMatch(/^Status: incomplete — The stream ended with message_stop, but the output was cut short/m);
    expect(text.out).toMatch(
      /^Fails \(--fail-on error,end\): the stream ended incomplete \(its output was cut short\)\.$/m,
    );
    // Its finding is a warning: the stream itself is whole.
    expect((await run(['inspect', '--fail-on', 'error', path])).code).toBe(0);
  });

  it('--fail-on chooses what fails: none, a severity, a rule, a family, repeated or as a comma list', async () => {
    expect((await run(['inspect', '--fail-on', 'none', '-'], CUT)).code).toBe(0);
    // Losing the cut event is an error finding (docs/diagnostics.md, severity principle); a clean stream has none.
    expect((await run(['inspect', '--fail-on', 'error', '-'], CUT)).code).toBe(1);
    expect((await run(['inspect', '--fail-on', 'end', '-'], CUT)).code).toBe(1);
    expect((await run(['inspect', '--fail-on', 'error', fixturePath('json_stream.json.sse')])).code).toBe(0);
    expect((await run(['inspect', '--fail-on', 'warning', '-'], CUT)).code).toBe(1);
    expect(
      (await run(['inspect', '--fail-on', 'stream.missing-done', fixturePath('retry_midstream.json.sse')])).code,
    ).toBe(0);
    expect((await run(['inspect', '--fail-on', 'end', fixturePath('retry_midstream.json.sse')])).code).toBe(1);
    expect((await run(['inspect', '--fail-on', 'sse.unterminated-event', '-'], CUT)).code).toBe(1);
    expect((await run(['inspect', '--fail-on', 'stream.error-frame', '-'], CUT)).code).toBe(0);
    expect((await run(['inspect', '--fail-on', 'stream.*', '-'], CUT)).code).toBe(1);
    const both = JSON.parse(
      (
        await run([
          'inspect',
          '--json',
          '--fail-on',
          'stream.error-frame',
          '--fail-on',
          'info,end',
          fixturePath('error_midstream.json.sse'),
        ])
      ).out,
    ) as Report;
    expect(both.failOn).toBe('stream.error-frame,info,end');
    expect(both.failures).toEqual([
      '3 findings of severity info or worse',
      'stream.error-frame (1×)',
      'the stream ended with an error',
    ]);
    expect((await run(['inspect', '--fail-on', 'warning', fixturePath('json_stream.json.sse')])).code).toBe(0);
  });

  it('--fail-on refuses what it does not know, with exit 2', async () => {
    const unknown = await run(['inspect', '--fail-on', 'stream.nope', '-'], CUT);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/--fail-on takes error, warning, info, end, none, a rule id or a rule family/);
    expect((await run(['inspect', '--fail-on', 'none,error', '-'], CUT)).code).toBe(2);
  });

  it('the help names --fail-on', async () => {
    expect((await run(['--help'])).out).toMatch(/--fail-on error\|warning\|info\|end\|none\|RULE/);
  });
});

describe("inspect ends a leg as this inspector's envelope export says, as the app does", () => {
  const EVENT = 'data: {"type":"text","agent":"a","final":false,"delta":"hi"}\n\n';
  const exportWith = (end: { reason: string; message?: string }): string =>
    [
      { exportedLeg: 0, startedAt: 0, request: null, response: null, stream: true, end },
      { seq: 0, leg: 0, frame: 0, agent: 'a', type: 'text', final: false, delta: 'hi', extras: {}, dialect: 'json' },
    ]
      .map((line, i) => JSON.stringify(i === 1 ? { ...line, byteStart: 0, byteEnd: EVENT.length, wire: EVENT } : line))
      .join('\n');

  it.each<[{ reason: string; message?: string }, string, number]>([
    [{ reason: 'aborted' }, 'stopped', 0],
    // Failed inside a stream that had no end of its own: cut, for the reason the leg failed.
    [{ reason: 'error', message: 'socket hang up' }, 'truncated', 1],
  ])('a leg that ended %j: %s, exit %i', async (end, kind, exit) => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-export-end-'));
    try {
      const path = join(dir, 'session.ndjson');
      await writeFile(path, exportWith(end));
      const json = await run(['inspect', '--json', '--fail-on', 'end', path]);
      const { status } = JSON.parse(json.out) as Report;
      expect(status.kind).toBe(kind);
      expect(status.reason).toContain(end.message ?? '');
      expect(json.code).toBe(exit);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("inspect's block sizes", () => {
  it('are UTF-8 bytes, in JSON and in text, not UTF-16 code units', async () => {
    const text = 'Hello, Teddy 🐶 é';
    const stream = `data: ${JSON.stringify({ type: 'text', agent: 'a', final: true, delta: text })}\n\ndata: [DONE]\n\n`;
    const json = JSON.parse((await run(['inspect', '--json', '-'], stream)).out) as { blocks: { bytes: number }[] };
    expect(json.blocks.map((b) => b.bytes)).toEqual([Buffer.byteLength(text)]); // 20, where text.length is 17
    expect((await run(['inspect', '-'], stream)).out).toMatch(/ 20 bytes$/m);
  });
});
