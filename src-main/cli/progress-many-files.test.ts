import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeBigRecording } from '../services/recording/big-recording-testing';
import { main } from './main';
import { memoryIo } from './test-io';

/**
 * `check` and `inspect` over many recordings draw the progress line on a terminal (bytes of the
 * files' total, envelopes, rates) and clear it before their report; piped, they draw nothing.
 * Each recording is small enough to be read whole, which once left the line's timer no turn.
 */
const FILES = 8;
let dir: string;
let files: string[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-check-progress-'));
  files = Array.from({ length: 4 * FILES }, (_, i) => join(dir, `run-${i}.recording`));
  // Each about 0.08 s of `check` on a quiet machine: every run must go well past the line's
  // first draw at half a second, whatever the machine (1.5 MB files, eight of them, once took
  // 0.35 s and drew nothing).
  for (const file of files) await writeBigRecording(file, 3 * 1024 * 1024);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe.each([
  {
    command: 'check',
    ARGS: ['check', '--expect', 'count(type == "text") > 0'],
    count: 2 * FILES,
    report: `${2 * FILES} passed`,
  },
  // inspect is about four times as fast as check: twice the files of check's run.
  { command: 'inspect', ARGS: ['inspect'], count: 4 * FILES, report: `${4 * FILES} files: 0 fail ` },
])('the progress line of $command', ({ ARGS, count, report }) => {
  const inputs = () => files.slice(0, count);
  it('shows on a terminal while many files are checked, of their total size, and is cleared before the report', async () => {
    const drawn: (string | null)[] = [];
    const io = { ...memoryIo(), progress: (line: string | null) => drawn.push(line) };
    const code = await main([...ARGS, ...inputs()], io);
    expect(code).toBe(0);
    const lines = drawn.filter((line): line is string => line !== null);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^[\d.]+ MB of [\d.]+ MB \(\d+ %\) · [\d.]+ MB\/s · [\d,]+ envelopes · [\d,]+\/s$/);
    expect(drawn.at(-1)).toBeNull();
    expect(io.out()).toContain(report);
  }, 120_000);

  it('never shows when stderr is piped', async () => {
    const child = spawn(process.execPath, ['bin/stream-inspector.mjs', ...ARGS, ...inputs()], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain(report);
    expect(err).toBe('');
  }, 120_000);
});
