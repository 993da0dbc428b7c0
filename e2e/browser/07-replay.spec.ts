import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startDemoAgent } from '../../src-main/services/demo-agent/server';
import { expect, test } from './fixtures';

/**
 * A recording made the way a user makes one (`stream-inspector record` against the running
 * demo agent, with its realistic pacing), opened in the app, replayed at ×4 and stepped.
 */
const root = resolve(import.meta.dirname, '../..');
let folder: string;
let recording: string;
/** Milliseconds between the first and the last network chunk of the recording. */
let recordedSpan: number;

test.beforeAll(async () => {
  // A demo agent of the test's own, so the recording is made the same way for either app.
  const demo = await startDemoAgent();
  folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-replay-'));
  recording = join(folder, 'subagents.asi');
  const body = JSON.stringify({ user_prompt: 'Use sub-agents in parallel.', scenario: 'subagents', format: 'json' });
  try {
    await promisify(execFile)(
      process.execPath,
      [
        join(root, 'bin/stream-inspector.mjs'),
        'record',
        `${demo.url}/agent/run`,
        '-H',
        'Content-Type: application/json',
        '-d',
        body,
        '-o',
        recording,
      ],
      { cwd: root },
    );
  } finally {
    await demo.close();
  }
  const times = (await readFile(recording, 'utf8'))
    .split('\n')
    .filter((line) => line.includes('"type":"chunk"'))
    .map((line) => (JSON.parse(line) as { t: number }).t);
  recordedSpan = Math.max(...times) - Math.min(...times);
  expect(recordedSpan).toBeGreaterThan(3000);
});

test.afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

test('replay a recording at ×4 and step through it', async ({ app, timeline, replay }) => {
  await app.openFiles(recording);
  await app.expectState('done');
  const total = await timeline.total();
  expect(total).toBeGreaterThan(20);

  await app.replayButton.click();
  await expect(app.sessionTitle).toHaveText(/^Replay of subagents\.asi$/);
  await expect(replay.controls).toBeVisible();
  await replay.pause();

  // Each step delivers exactly one more envelope and stays paused.
  const start = await replay.statePosition();
  expect(start).toBeLessThan(total - 10);
  for (let i = 1; i <= 3; i++) {
    await replay.step();
    await expect(replay.controls).toHaveAttribute('data-position', String(start + i));
    await expect(replay.controls).toHaveAttribute('data-playing', 'false');
    await expect.poll(() => timeline.total()).toBe(start + i);
  }
  await expect(replay.position).toHaveText(new RegExp(`^${start + 3} / ${total}$`));
  // The status line counts what the timeline shows.
  await expect.soft.poll(() => app.envelopeCount(), { timeout: 5000 }).toBe(start + 3);
  await app.screenshot('07-replay-stepping');

  // At ×4 the rest plays in about a quarter of the recorded time (×1 would take nearly all of it).
  await replay.setSpeed('×4');
  await app.watchCheckboxWrites();
  const played = Date.now();
  await replay.play();
  await expect(replay.finished).toBeVisible({ timeout: recordedSpan });
  expect(Date.now() - played).toBeLessThan(recordedSpan * 0.6);
  expect(await app.checkboxWrites(), 'checkbox attributes written while playing (the breakpoints menu)').toBe(0);
  await expect.poll(() => timeline.total()).toBe(total);
  await app.expectState('done');
  await expect.poll(() => app.envelopeCount()).toBe(total);
  await app.expectNoErrors();
  await app.screenshot('07-replay-finished');
});
