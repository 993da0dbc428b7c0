import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { LoopbackServer } from '../../services/connection/loopback-testing';
import { readFirehoses, startFirehose } from '../../services/proxy/firehose-testing';
import { openSource } from '../../services/importers';

/**
 * Ctrl-C of the real CLI process while firehose streams pour through the proxy: what the user
 * sees is the process, so this spawns the bin (not `main` in the test's own process, whose
 * event loop the test shares) and times the exit.
 */

let dir: string;
let server: LoopbackServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-proxy-sigint-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const STREAMS = 4;
/** What each client receives before the interrupt: by then the proxy decodes and records at full tilt, its reads held back by backpressure. */
const BEFORE_INTERRUPT = 1024 * 1024;

it(
  `proxy bin: SIGINT exits within 2 s while ${STREAMS} firehose streams pour through, leaving readable recordings`,
  { timeout: 60_000 },
  async () => {
    server = await startFirehose();
    const child = spawn(
      process.execPath,
      ['bin/stream-inspector.mjs', 'proxy', '--listen', '0', '--target', server.url, '--record-dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let out = '';
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (t: string) => (err += t));
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (text: string) => {
        out += text;
        const found = /Proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (found) resolve(found[1]!);
      });
      child.once('exit', () => reject(new Error(`the proxy exited before listening: ${out}`)));
    });
    const clients = readFirehoses(`${url}/agent/run`, STREAMS);
    await clients.received(BEFORE_INTERRUPT);
    const interruptedAt = performance.now();
    child.kill('SIGINT');
    const [code] = await exited;
    const took = performance.now() - interruptedAt;
    expect(code, err).toBe(0);
    expect(took).toBeLessThan(2000);
    // The streams were cut, each recording was closed and reads back whole.
    for (const result of await clients.ended) expect(result.error).not.toBeNull();
    const files = await readdir(dir);
    expect(files).toHaveLength(STREAMS);
    for (const file of files) {
      const source = await openSource(join(dir, file));
      let bytes = 0;
      for await (const chunk of source.legs[0]!.chunks) bytes += chunk.bytes.length;
      expect(bytes).toBeGreaterThan(0);
      expect(['aborted', 'closed']).toContain(source.legs[0]!.outcome?.reason);
    }
  },
);
