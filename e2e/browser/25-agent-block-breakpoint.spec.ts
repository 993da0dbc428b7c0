import type { Locator, Page } from '@playwright/test';
import { fixturePath } from '../../src-main/testing/fixtures';
import { REPLAY_IDS } from '../../src-renderer/views/replay/testids';
import { expect, test } from './fixtures';

/**
 * With sub-agents interleaving on one connection, "agent takes over" pauses at every switch
 * back to the agent (every other envelope). "Agent starts a new block" pauses where the agent
 * starts its next block, and Continue goes to the one after.
 */
const ENDED = /^(done|truncated|ended by error|stopped)$/;
const SUB = '44444444-4444-4444-8444-444444444444';

const breakpointOption = (page: Page, value: string): Locator =>
  page.locator(`[data-testid="${REPLAY_IDS.breakpointOption}"][data-value="${value}"] input`);

test('an agent breakpoint can pause where the agent starts a new block', async ({ app, replay, inspector, page }) => {
  // A replay stepped to several hits, on a loaded machine.
  test.setTimeout(150_000);
  await app.openFiles(fixturePath('multi_agent.json.sse'));
  await app.expectState(ENDED);
  const sourceId = (await app.sessionItems.first().getAttribute('data-session-id'))!;
  const blocks = await inspector.getBlocks({ sessionId: sourceId, agent: SUB });
  const starts = (
    await Promise.all(
      blocks.map(async (b) => (await inspector.getBlock({ sessionId: sourceId, block: b.id })).envelopes[0]!),
    )
  ).sort((a, b) => a - b);
  const rows = (await inspector.getRows({ sessionId: sourceId, start: 0, count: 1000 })).rows;
  const switches = rows.flatMap((r, i) => (r.agent === SUB && rows[i - 1]?.agent !== SUB ? [i] : []));
  // Interleaved: the agent takes over more often than it starts blocks.
  expect(switches.length).toBeGreaterThan(starts.length);

  await app.replayButton.click();
  await expect(replay.controls).toBeVisible();
  await replay.holdStill();
  await replay.setSpeed('fast');
  // Back near the start, wherever the replay got to before it was paused.
  await replay.seekTo(1);
  const menu = page.getByTestId(REPLAY_IDS.breakpoints);
  await menu.locator('summary').click();
  await expect(breakpointOption(page, `agent:${SUB}`)).toBeVisible();
  await breakpointOption(page, `agent-block:${SUB}`).click();
  await expect(breakpointOption(page, `agent-block:${SUB}`)).toBeChecked();
  await app.screenshot('25-agent-block-breakpoint-menu');
  await page.keyboard.press('Escape');

  const position = Number(await replay.controls.getAttribute('data-position'));
  const ahead = starts.filter((seq) => seq >= position).slice(0, 3);
  expect(ahead.length).toBeGreaterThanOrEqual(2);
  const hit = page.getByTestId(REPLAY_IDS.hit);
  for (const seq of ahead) {
    await replay.play();
    await expect(hit).toHaveAttribute('data-envelope', String(seq));
    await expect(hit).toContainText(/agent sub \d starts a block/);
  }
  await app.screenshot('25-agent-block-breakpoint-hit');
  await app.expectNoErrors();
});
