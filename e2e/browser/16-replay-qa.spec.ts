import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { fixturePath } from '../../src-main/testing/fixtures';
import { REPLAY_IDS } from '../../src-renderer/views/replay/testids';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { ReplayPage } from './pages/replay-page';

/**
 * Replay as a QA tool: breakpoints that pause a replay exactly at the envelope that hits
 * (frontend-tools prompt, error finding, type, agent) with Continue to the next hit; a loop;
 * "run this request in xml and json and diff them" in one action. And the small layout and
 * state defects found around them.
 */

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

const breakpointOption = (page: Page, value: string): Locator =>
  page.locator(`[data-testid="${REPLAY_IDS.breakpointOption}"][data-value="${value}"] input`);

/** Starts a replay of the active session and leaves it paused at the start, at the fastest speed. */
async function pausedReplay(app: AppPage, replay: ReplayPage): Promise<void> {
  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  // Paused, or restarted paused if it already ended: it may end between two looks.
  await replay.holdStill();
  await replay.setSpeed('fast');
  await replay.seekTo(1);
}

/** Ticks breakpoints in the transport's menu, then closes it. */
async function setBreakpoints(page: Page, values: string[]): Promise<void> {
  const menu = page.getByTestId(REPLAY_IDS.breakpoints);
  await menu.locator('summary').click();
  for (const value of values) {
    await breakpointOption(page, value).click();
    await expect(breakpointOption(page, value)).toBeChecked();
  }
  await page.keyboard.press('Escape');
  await expect(menu).not.toHaveAttribute('open', '');
}

test('a type breakpoint pauses exactly at the first envelope of each run; Continue goes to the next hit', async ({
  app,
  replay,
  timeline,
  inspector,
  page,
}) => {
  // Two rounds of screenshots (two themes, two sizes) on a loaded machine.
  test.setTimeout(150_000);
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState(ENDED);
  const sourceId = (await app.sessionItems.first().getAttribute('data-session-id'))!;
  const rows = (await inspector.getRows({ sessionId: sourceId, start: 0, count: 1000 })).rows;
  const types = rows.map((r) => r.type);
  const starts = types.flatMap((t, i) => (t === 'tool_call' && types[i - 1] !== 'tool_call' && i > 0 ? [i] : []));
  expect(starts.length).toBeGreaterThanOrEqual(2);

  await pausedReplay(app, replay);
  await setBreakpoints(page, ['type:tool_call']);
  await expect(page.getByTestId(REPLAY_IDS.breakpoints).locator('summary')).toHaveText('1');

  for (const seq of starts.slice(0, 2)) {
    await replay.play();
    const hit = page.getByTestId(REPLAY_IDS.hit);
    await expect(hit).toHaveAttribute('data-envelope', String(seq));
    await expect(hit).toContainText(`Paused at breakpoint: type tool_call at envelope #${seq}`);
    await expect(replay.controls).toHaveAttribute('data-position', String(seq + 1));
    await expect.poll(() => timeline.total()).toBe(seq + 1);
    await expect(timeline.row(seq)).toBeVisible();
    await expect(timeline.row(seq + 1)).toHaveCount(0);
    await expect(app.sessionState).toHaveText('paused');
  }
  await app.screenshotSizesAndThemes('16-breakpoint-hit');

  // Show envelope selects the row.
  await page.getByTestId(REPLAY_IDS.hitShow).click();
  await expect(timeline.detailPane).toBeVisible();

  // An agent breakpoint (agents named as everywhere else) hits where that agent takes over.
  const sub = '44444444-4444-4444-8444-444444444444';
  const takeOver = rows.findIndex((r, i) => r.agent === sub && i > starts[1]! && rows[i - 1]!.agent !== sub);
  expect(takeOver).toBeGreaterThan(0);
  await page.getByTestId(REPLAY_IDS.breakpoints).locator('summary').click();
  await app.screenshotSizesAndThemes('16-breakpoint-menu');
  await breakpointOption(page, 'type:tool_call').click();
  await expect(breakpointOption(page, 'type:tool_call')).not.toBeChecked();
  await breakpointOption(page, `agent:${sub}`).click();
  await expect(breakpointOption(page, `agent:${sub}`)).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId(REPLAY_IDS.hit)).toHaveCount(0);
  await replay.play();
  await expect(page.getByTestId(REPLAY_IDS.hit)).toHaveAttribute('data-envelope', String(takeOver));
  await expect(page.getByTestId(REPLAY_IDS.hit)).toContainText(/agent sub \d/);

  // Without breakpoints, Continue plays on to the end.
  await page.getByTestId(REPLAY_IDS.breakpoints).locator('summary').click();
  await page.getByTestId(REPLAY_IDS.breakpointsClear).click();
  await page.keyboard.press('Escape');
  await replay.play();
  await expect(replay.finished).toBeVisible();
  await expect.poll(() => timeline.total()).toBe(types.length);
  await app.expectNoErrors();
});

test('a breakpoint on the frontend-tools prompt pauses at the awaiting_frontend_tools envelope', async ({
  app,
  replay,
  timeline,
  inspector,
  page,
}) => {
  await app.openFiles(fixturePath('frontend_tools.json.sse'));
  await app.expectState(/awaiting tools|done/);
  const sourceId = (await app.sessionItems.first().getAttribute('data-session-id'))!;
  const rows = (await inspector.getRows({ sessionId: sourceId, start: 0, count: 1000 })).rows;
  const prompt = rows.findIndex((r) => r.type === 'awaiting_frontend_tools');
  expect(prompt).toBeGreaterThan(0);

  await pausedReplay(app, replay);
  await setBreakpoints(page, ['type:awaiting_frontend_tools']);
  await replay.play();
  await expect(page.getByTestId(REPLAY_IDS.hit)).toHaveAttribute('data-envelope', String(prompt));
  await expect(page.getByTestId(REPLAY_IDS.hit)).toContainText('awaiting_frontend_tools');
  await expect.poll(() => timeline.total()).toBe(prompt + 1);
  await expect(timeline.row(prompt)).toContainText('awaiting_frontend_tools');

  await app.expectNoErrors();
});

test('an error-finding breakpoint pauses where the first error is found, naming its rule', async ({
  app,
  replay,
  timeline,
  page,
}) => {
  const folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-bp-'));
  try {
    const file = join(folder, 'broken.sse');
    const good = (i: number) => `data: {"type":"text","agent":"a","final":false,"delta":"part ${i} "}\n\n`;
    await writeFile(
      file,
      [0, 1, 2, 3].map(good).join('') + 'data: {"type":"text",\n\n' + [4, 5].map(good).join('') + 'data: [DONE]\n\n',
    );
    await app.openFiles(file);
    await app.expectState(ENDED);
    await pausedReplay(app, replay);
    await setBreakpoints(page, ['error']);
    await replay.play();
    const hit = page.getByTestId(REPLAY_IDS.hit);
    await expect(hit).toContainText('error finding json.invalid at envelope #4');
    await expect.poll(() => timeline.total()).toBe(5);
    await page.getByTestId(REPLAY_IDS.continue).click();
    await expect(replay.finished).toBeVisible();
    await expect(hit).toHaveCount(0);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('loop: a replay starts over at the end until the loop is turned off', async ({ app, replay, timeline, page }) => {
  await app.openFiles(fixturePath('json_stream.json.sse'));
  await app.expectState(ENDED);
  const total = await timeline.total();
  await pausedReplay(app, replay);
  const loop = page.getByTestId(REPLAY_IDS.loop);
  await loop.click();
  await expect(loop).toHaveAttribute('aria-pressed', 'true');
  await replay.play();
  await expect(loop).toHaveAttribute('data-loops', '2', { timeout: 15_000 });
  await app.screenshotSizesAndThemes('16-replay-loop');
  await loop.click();
  await expect(loop).toHaveAttribute('aria-pressed', 'false');
  await expect(replay.finished).toBeVisible({ timeout: 10_000 });
  const loops = await loop.getAttribute('data-loops');
  await page.waitForTimeout(1500);
  await expect(loop).toHaveAttribute('data-loops', loops!);
  await expect.poll(() => timeline.total()).toBe(total);
  await app.expectNoErrors();
});

test('regression: the sidebar said "replaying" for a paused replay — it says "paused"', async ({
  app,
  connect,
  replay,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json' });
  await connect.connect();
  await app.expectState(ENDED);
  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  const item = app
    .sessionItem(/^Replay of/)
    .first()
    .getByTestId('session-item-state');
  await expect(item).toHaveText('replaying');
  await replay.pause();
  await expect(item).toHaveText('paused');
  await replay.play();
  await expect(item).toHaveText('replaying');
});

test('regression: a replay of a file showed the chunks-vs-frames chart — it is hidden as for the file', async ({
  app,
  replay,
  diagnostics,
  page,
}) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState(ENDED);
  await pausedReplay(app, replay);
  await replay.play();
  await expect(replay.finished).toBeVisible();
  await app.show('diagnostics');
  await expect(diagnostics.charts).toBeVisible();
  await expect(page.getByTestId('chart-overhead')).toBeVisible();
  await expect(page.getByTestId('chart-chunks-frames')).toHaveCount(0);
});

/** Lines of text a cell's content takes (its height over its line height). */
async function linesOf(cell: Locator): Promise<number> {
  return cell.evaluate((element) => {
    const text = element.querySelector('span') ?? element;
    const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 16;
    return Math.round(text.getBoundingClientRect().height / lineHeight);
  });
}

test('one action runs the request in xml and json and opens the Diff on the pair; the "why" column reads as text', async ({
  app,
  connect,
  diff,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  await page.getByTestId('run-formats').click();
  await app.expectView('diff');
  await expect(diff.result).toHaveAttribute('data-stale', 'false', { timeout: 30_000 });
  await expect(diff.left.locator('option:checked')).toContainText('Demo agent: Tour · xml');
  await expect(diff.right.locator('option:checked')).toContainText('Demo agent: Tour · json');
  await expect(app.sessionItems).toHaveCount(3);

  for (const [width, height] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width, height });
    const whys = page.locator('.diff-table td.c-why');
    const count = Math.min(await whys.count(), 12);
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const why = whys.nth(i);
      const text = (await why.innerText()).trim();
      // A reason of a few words keeps to a line or two, never a word per line.
      if (text.split(/\s+/).length >= 3) expect(await linesOf(why), `“${text}” at ${width} px`).toBeLessThanOrEqual(2);
    }
  }
  await app.screenshotSizesAndThemes('16-format-pair-diff');
});

test('the filter bar at 1024 px shows its selects whole', async ({ app, timeline, page }) => {
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState(ENDED);
  await page.setViewportSize({ width: 1024, height: 700 });
  await timeline.select(3);
  await expect(timeline.detailPane).toBeVisible();
  const cut = await page.evaluate(() => {
    const bar = document.querySelector('.filter-bar')!;
    const problems: string[] = [];
    for (const select of bar.querySelectorAll('select')) {
      const label = select.selectedOptions[0]?.text ?? '';
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.style.position = 'absolute';
      probe.style.whiteSpace = 'pre';
      probe.textContent = label;
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      // The text plus the arrow must fit the content box.
      const style = getComputedStyle(select);
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (needed > room + 0.5) problems.push(`${label}: ${Math.round(needed)} px in ${Math.round(room)}`);
    }
    for (const summary of bar.querySelectorAll('summary'))
      if (summary.scrollWidth > summary.clientWidth + 1) problems.push(`${summary.textContent}: cut`);
    return problems;
  });
  expect(cut).toEqual([]);
  await app.screenshot('16-filter-bar-1024-light');
});
