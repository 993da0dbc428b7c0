import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refusedPort, startLoopbackServer, type LoopbackServer } from '../../services/connection/loopback-testing';
import { main } from '../main';
import { memoryIo } from '../test-io';

/** `record` of a request that gets no stream: what it says on stderr, once, and its exit code. */

let dir: string;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-cli-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const io = { ...memoryIo(), cwd: dir };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** A loopback server that answers every request with `status` and `body`. */
async function answering(status: number, contentType: string, body: string): Promise<string> {
  server = await startLoopbackServer((_req, res) => {
    res.writeHead(status, { 'Content-Type': contentType });
    res.end(body);
  });
  return `${server.url}/agent/run`;
}

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

describe('stream-inspector record: no stream', () => {
  it('says the server answered HTTP 404 Not Found (it was reached), with its body escaped, and exits 2', async () => {
    const url = await answering(404, 'text/html', '<h1>Not here</h1>\x1b[2J');
    const { code, out, err } = await run(['record', url, '-o', 'missing.recording']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toContain('The server answered HTTP 404 Not Found: nothing at this path (check the URL).');
    expect(err).toContain('--- response body ---\n<h1>Not here</h1>\\x1b[2J\n');
    expect(err).not.toContain('\x1b');
  });

  it('shows a failed request with its body and exits 2', async () => {
    const url = await answering(422, 'application/json', '{"detail":[{"msg":"field required"}]}');
    const { code, err } = await run(['record', url, '-d', '{}', '-o', 'fail.ndjson']);
    expect(code).toBe(2);
    expect(err).toMatch(/^The server answered HTTP 422 Unprocessable Entity/m);
    expect(err).toContain('{"detail":[{"msg":"field required"}]}');
  });

  it('shows the start of a long body and says how much was left out', async () => {
    const url = await answering(500, 'text/plain', `${'x'.repeat(499)}😀${'y'.repeat(2000)}`);
    const { code, err } = await run(['record', url, '-o', 'long.recording']);
    expect(code).toBe(2);
    // 499 characters: the 500th is half of the emoji, never shown alone.
    expect(err).toContain(
      `--- response body ---\n${'x'.repeat(499)}\n… (499 of 2501 characters shown; --json has them all)\n`,
    );
  });

  it('says the reason once', async () => {
    const url = await answering(404, 'text/plain', '');
    const answered = await run(['record', url, '-o', 'once.recording']);
    expect(occurrences(answered.err, 'nothing at this path')).toBe(1);
    expect(answered.err).not.toContain('--- response body ---');
    const refused = await run(['record', `http://127.0.0.1:${await refusedPort()}/x`, '-o', 'refused.ndjson']);
    expect(refused.code).toBe(2);
    expect(occurrences(refused.err, 'Connection refused')).toBe(1);
    expect(refused.err).toMatch(/^failed \(Connection refused by 127\.0\.0\.1:\d+: nothing is listening there/m);
  });
});
