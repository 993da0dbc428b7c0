import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../services/connection/loopback-testing';
import { createDefaultSessionService } from '../hosts/default-service';
import { settled, waitFor } from '../services/sessions/service-testing';
import type { SessionService } from '../services/sessions/session-service';
import { main } from './main';
import { memoryIo } from './test-io';

/**
 * Regression tests for the smaller defects found by attacking the inspector, one each, run
 * the way a user meets them: `inspect` on a file, or a live session against a loopback server.
 */

let dir: string;
let service: SessionService;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-regressions-'));
  service = createDefaultSessionService();
});
afterEach(async () => {
  await service.dispose();
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string | Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

async function inspect(path: string) {
  const io = memoryIo();
  const code = await main(['inspect', '--json', path], io);
  const report =
    code === 2 ? null : (JSON.parse(io.out()) as { diagnostics: { rule: string; severity: string; first: string }[] });
  return { code, report, err: io.err(), finding: (rule: string) => report?.diagnostics.find((d) => d.rule === rule) };
}

/** The failure shown for the first leg of a file session. */
async function legFailure(path: string): Promise<string | undefined> {
  const { id } = await service.openFile({ path });
  await settled(service, id);
  return (await service.getSession({ sessionId: id })).legs[0]?.failure?.message;
}

const rulesOf = (report: { diagnostics: { rule: string }[] } | null): string[] =>
  report?.diagnostics.map((d) => d.rule) ?? [];

const header =
  '{"format":"agent-stream-inspector-recording","version":1,"createdAt":"2026-03-01T12:00:00.000Z","t":0,"redacted":true}\n';
const legStart =
  '{"type":"leg","leg":0,"t":1,"request":{"method":"GET","url":"http://127.0.0.1:9/stream","headers":[],"body":null}}\n';
const response = (status: number, statusText: string, headers: [string, string][] = []): string =>
  `${JSON.stringify({ type: 'response', leg: 0, t: 2, status, statusText, headers })}\n`;
const chunk = (seq: number, offset: number, text: string): string =>
  `${JSON.stringify({ type: 'chunk', leg: 0, seq, offset, t: 3 + seq, bytes: Buffer.from(text).toString('base64') })}\n`;
const end = '{"type":"end","leg":0,"t":20,"reason":"done"}\n';

describe('regressions: smaller defects', () => {
  it('a gzip body without Content-Encoding is named, not decoded as garbage silently', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(gzipSync('data: {"type":"text"}\n\ndata: [DONE]\n\n'));
    });
    const { id } = await service.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [] });
    await settled(service, id);
    const diagnostics = await service.getDiagnostics({ sessionId: id });
    expect(diagnostics.find((d) => d.rule === 'stream.compressed-body')).toMatchObject({
      severity: 'error',
      message: expect.stringMatching(/gzip signature, but no Content-Encoding/) as unknown,
    });

    const { code, err } = await inspect(await file('capture.sse.gz', gzipSync('data: [DONE]\n\n')));
    expect(code).toBe(2);
    expect(err).toMatch(/first bytes were gzip-compressed data \(decompress it first/);
  });

  it('a session shut down with the inspector (SIGTERM closes every session) is not "stopped by the user" in its recording', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      const timer = setInterval(
        () => res.write('data: {"type":"text","agent":"a","final":false,"delta":"tick "}\n\n'),
        5,
      );
      res.on('close', () => clearInterval(timer));
    });
    const path = join(dir, 'shutdown.recording');
    await service.connect({ url: `${server.url}/agent/run`, method: 'GET', headers: [], recordTo: path });
    await waitFor(async () => ((await service.listSessions())[0]?.envelopes ?? 0) > 3, 'the first events');
    await service.dispose();
    const records = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reason?: string; message?: string });
    expect(records.at(-1)).toMatchObject({
      type: 'end',
      reason: 'closed',
      message: expect.stringMatching(/^The session was closed while the leg was open/) as unknown,
    });
    const { report } = await inspect(path);
    expect(report).toMatchObject({
      status: {
        kind: 'truncated',
        reason: expect.stringMatching(/The session was closed while the leg was open/) as unknown,
      },
    });
    // The app reopens it the same: cut, not stopped by the user.
    service = createDefaultSessionService();
    const reopened = await settled(service, (await service.openFile({ path })).id);
    expect(reopened.end).toMatchObject({
      kind: 'truncated',
      reason: expect.stringMatching(/The session was closed while the leg was open/) as unknown,
    });
  });

  it('a recording whose header was written with spaces (another tool, a pretty-printer) is read as a recording', async () => {
    const spaced =
      '{"format": "agent-stream-inspector-recording", "version": 1, "createdAt": "2026-03-01T12:00:00.000Z", "t": 0, "redacted": true}\n';
    const path = await file(
      'spaced.recording',
      spaced +
        legStart +
        response(200, 'OK', [['content-type', 'text/event-stream']]) +
        chunk(0, 0, 'data: [DONE]\n\n') +
        end,
    );
    const { code, report } = await inspect(path);
    expect(report).toMatchObject({ kind: 'recording', status: { kind: 'done' }, diagnostics: [] });
    expect(code).toBe(0);
  });

  it('a recorded 204 says No Content, not "no Content-Type"', async () => {
    const path = await file('204.recording', header + legStart + response(204, 'No Content') + end);
    expect(await legFailure(path)).toMatch(/^HTTP 204 No Content: the server has no stream to send/);
  });

  it('a recorded redirect names its target, resolved against the request and redacted', async () => {
    const path = await file(
      '302.recording',
      header + legStart + response(302, 'Found', [['Location', '/v2/stream?token=CANARY']]) + end,
    );
    expect(await legFailure(path)).toMatch(
      /^HTTP 302 Found: redirects to http:\/\/127\.0\.0\.1:9\/v2\/stream\?token=\[redacted\]; redirects are not followed/,
    );
  });

  it('a duplicated chunk line is reported and skipped; a deleted one is reported as a hole', async () => {
    const events = ['data: 0\n\n', 'data: 1\n\n', 'data: 2\n\n'];
    const lines = events.map((text, seq) => chunk(seq, seq * 9, text));
    const duplicated = await inspect(
      await file(
        'dup.recording',
        header +
          legStart +
          response(200, 'OK', [['content-type', 'text/event-stream']]) +
          lines[0] +
          lines[1] +
          lines[1] +
          lines[2] +
          end,
      ),
    );
    expect(duplicated.code).toBe(1);
    expect(duplicated.finding('recording.chunk-sequence')?.first).toMatch(
      /repeats chunk 1 of leg 0, which was already read \(a duplicated line\); skipped/,
    );
    const { id } = await service.openFile({ path: join(dir, 'dup.recording') });
    expect((await settled(service, id)).bytes).toBe(27);

    const deleted = await inspect(
      await file(
        'del.recording',
        header + legStart + response(200, 'OK', [['content-type', 'text/event-stream']]) + lines[0] + lines[2] + end,
      ),
    );
    expect(deleted.code).toBe(1);
    expect(deleted.finding('recording.chunk-sequence')?.first).toMatch(
      /missing 1 chunk record\(s\), 9 bytes of the stream from stream offset 9/,
    );
  });

  it('a recording without chunk numbers (written before they existed) still reads without findings', async () => {
    const old = `${JSON.stringify({ type: 'chunk', leg: 0, t: 3, bytes: Buffer.from('data: [DONE]\n\n').toString('base64') })}\n`;
    const { code, report } = await inspect(
      await file(
        'old.recording',
        header + legStart + response(200, 'OK', [['content-type', 'text/event-stream']]) + old + end,
      ),
    );
    expect(code).toBe(0);
    expect(rulesOf(report)).toEqual([]);
  });

  it('a torn recording makes inspect exit 1 with the finding', async () => {
    const whole =
      header +
      legStart +
      response(200, 'OK', [['content-type', 'text/event-stream']]) +
      chunk(0, 0, 'data: [DONE]\n\n');
    const { code, finding } = await inspect(
      await file('torn.recording', `${whole}{"type":"chunk","leg":0,"seq":1,"off`),
    );
    expect(code).toBe(1);
    expect(finding('recording.torn-tail')).toMatchObject({ severity: 'error' });
  });

  it.each([
    ['starts mid-line', 'ta: {"cut":true}\n\ndata: [DONE]\n\n', 18, /does not start with an SSE field/],
    ['has two BOMs', '\uFEFF\uFEFFdata: [DONE]\n\n', 6, /starts with 2 byte-order marks where a stream may have one/],
    ['has a first line "Data: x"', 'Data: x\n\ndata: [DONE]\n\n', 9, /names are case-sensitive/],
  ])('a capture that %s is decoded from the first event on, with a finding', async (_name, text, offset, message) => {
    const { code, report, finding } = await inspect(await file('capture.sse', text));
    expect(code).toBe(0);
    expect(finding('import.skipped-prefix')?.first).toMatch(new RegExp(`^Decoded from byte ${offset}: `));
    expect(finding('import.skipped-prefix')?.first).toMatch(message);
    expect(rulesOf(report)).not.toContain('stream.missing-done');
  });

  it('an event:-only event (no data) gets the finding the framer promises', async () => {
    const { finding } = await inspect(await file('event-only.sse', 'event: ping\n\ndata: [DONE]\n\n'));
    expect(finding('sse.event-without-data')?.first).toMatch(/type "ping" has no data: line/);
  });

  it('a live recording carries chunk numbers and offsets', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.write('data: 1\n\n');
      setTimeout(() => res.end('data: [DONE]\n\n'), 30);
    });
    const path = join(dir, 'live.recording');
    const { id } = await service.connect({ url: `${server.url}/s`, method: 'GET', headers: [], recordTo: path });
    await settled(service, id);
    await service.closeSession({ sessionId: id });
    const chunks = (await readFile(path, 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"type":"chunk"'))
      .map((l) => JSON.parse(l) as { seq: number; offset: number });
    expect(chunks.map((c) => [c.seq, c.offset])).toEqual([
      [0, 0],
      [1, 9],
    ]);
  });
});
