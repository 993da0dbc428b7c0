import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { progressLine, showsProgress, startProgress } from './progress';
import { memoryIo } from './test-io';

const EVENT = 'data: {"type":"text","agent":"a","final":false,"delta":"hello"}\n\n';
const LAST = 'data: {"type":"text","agent":"a","final":true,"delta":""}\n\n';

/** Writes 200 events, waits `pauseMs`, writes 200 more and the end (402 envelopes), then ends: a slow producer. */
async function slowly(write: (text: string) => void, end: () => void, pauseMs: number): Promise<void> {
  write(EVENT.repeat(200));
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  write(`${EVENT.repeat(200)}${LAST}data: [DONE]\n\n`);
  end();
}

describe('the progress line', () => {
  it('is drawn only on a terminal that can redraw a line', () => {
    expect(showsProgress({ isTTY: true }, { TERM: 'xterm-256color' })).toBe(true);
    expect(showsProgress({ isTTY: true }, {})).toBe(true);
    expect(showsProgress({}, { TERM: 'xterm-256color' })).toBe(false);
    expect(showsProgress({ isTTY: false }, { TERM: 'xterm' })).toBe(false);
    expect(showsProgress({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  it('says bytes of the total and envelopes, each with its rate', () => {
    const line = progressLine({ bytes: 50 * 1024 * 1024, envelopes: 1_500_000 }, 2000, 200 * 1024 * 1024);
    expect(line).toBe('50 MB of 200 MB (25 %) · 25 MB/s · 1,500,000 envelopes · 750,000/s');
    expect(progressLine({ bytes: 1024 * 1024, envelopes: 10 }, 1000, 0)).toBe(
      '1.0 MB · 1.0 MB/s · 10 envelopes · 10/s',
    );
  });

  it('waits half a second before the first line, and clears it when the command ends', () => {
    const drawn: (string | null)[] = [];
    let clock = 0;
    const progress = startProgress(
      { ...memoryIo(), progress: (line) => drawn.push(line) },
      { now: () => clock, timer: false },
    );
    const counts = progress.counts as NonNullable<typeof progress.counts>;
    counts.bytes = 1024 * 1024;
    progress.tick();
    expect(drawn).toEqual([]);
    clock = 1000;
    counts.envelopes = 5;
    progress.tick();
    progress.stop();
    expect(drawn).toEqual(['1.0 MB · 1.0 MB/s · 5 envelopes · 5/s', null]);
  });

  it('counts nothing and draws nothing without a terminal', () => {
    const progress = startProgress(memoryIo(), { now: () => 10_000, timer: false });
    expect(progress.counts).toBeUndefined();
    progress.tick();
    progress.stop();
  });

  it('shows inspect reading a slow stream on a terminal, and clears the line before the report', async () => {
    const stdin = new PassThrough();
    const drawn: (string | null)[] = [];
    const io = { ...memoryIo(), stdin, progress: (line: string | null) => drawn.push(line) };
    // Loaded first: the command's modules take longer to load under the test runner than the pause lasts.
    await import('./commands/inspect');
    const [code] = await Promise.all([
      main(['inspect', '-'], io),
      slowly(
        (text) => stdin.write(text),
        () => stdin.end(),
        900,
      ),
    ]);
    expect(code).toBe(0);
    expect(drawn.at(-1)).toBeNull();
    expect(drawn.find((line) => line !== null)).toMatch(/ MB\/s · \d+ envelopes · [\d,]+\/s$/);
    expect(io.out()).toContain('402 envelopes');
  });

  it('never shows when stderr is piped (a real process, its stream slow enough for a line to be due)', async () => {
    const child = spawn(process.execPath, ['bin/stream-inspector.mjs', 'inspect', '-'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let err = '';
    let out = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
    await slowly(
      (text) => child.stdin.write(text),
      () => child.stdin.end(),
      // Long enough for a line to be due after the CLI started, even when it runs from the sources.
      3000,
    );
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(out).toContain('402 envelopes');
    expect(err).toBe('');
  });
});
