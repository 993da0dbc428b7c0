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
 * `check` over many recordings draws the progress line on a terminal (bytes of the files'
 * total, envelopes, rates) and clears it before its report; piped, it draws nothing.
 */
const FILES = 8;
let dir: string;
let files: string[];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-check-progress-'));
  files = Array.from({ length: FILES }, (_, i) => join(dir, `run-${i}.recording`));
  for (const file of files) await writeBigRecording(file, 1.5 * 1024 * 1024);
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

const ARGS = ['check', '--expect', 'count(type == "text") > 0'];

describe('the progress line of check', () => {
  it('shows on a terminal while many files are checked, of their total size, and is cleared before the report', async () => {
    const drawn: (string | null)[] = [];
    const io = { ...memoryIo(), progress: (line: string | null) => drawn.push(line) };
    const code = await main([...ARGS, ...files], io);
    expect(code).toBe(0);
    const lines = drawn.filter((line): line is string => line !== null);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines[0]).toMatch(/^[\d.]+ MB of [\d.]+ MB \(\d+ %\) · [\d.]+ MB\/s · [\d,]+ envelopes · [\d,]+\/s$/);
    expect(drawn.at(-1)).toBeNull();
    expect(io.out()).toContain(`${FILES} passed`);
  }, 120_000);

  it('never shows when stderr is piped', async () => {
    const child = spawn(process.execPath, ['bin/stream-inspector.mjs', ...ARGS, ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain(`${FILES} passed`);
    expect(err).toBe('');
  }, 120_000);
});
