import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** `npm start -- --browser` as a real child process: waits for its URL, sends `signal`, returns how it ended. */
async function startThenSignal(
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number; output: string }> {
  dir = await mkdtemp(join(tmpdir(), 'host-shutdown-'));
  const child = spawn(
    process.execPath,
    [join(root, 'scripts/start.mjs'), '--browser', '--no-build', '--no-demo', '--port', '0'],
    {
      cwd: root,
      env: { ...process.env, STREAM_INSPECTOR_USER_DATA: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.on('exit', (code, sig) => done([code, sig])),
  );
  for await (const line of createInterface({ input: child.stdout })) {
    output += `${line}\n`;
    if (/Agent Stream Inspector: http:\/\/127\.0\.0\.1:\d+\//.test(line)) break;
  }
  const sentAt = Date.now();
  child.kill(signal);
  const timeout = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code, sig] = await exited;
  clearTimeout(timeout);
  return { code, signal: sig, ms: Date.now() - sentAt, output };
}

describe('the browser host shuts down on a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'exits on %s, session worker included, within the shutdown timeout',
    async (signal) => {
      const ended = await startThenSignal(signal);
      expect([ended.signal, ended.code], ended.output).toEqual([null, 0]);
      expect(ended.code, ended.output).toBe(0);
      expect(ended.ms).toBeLessThan(6000);
    },
    30_000,
  );
});
