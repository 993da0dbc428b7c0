import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/** The names the timeline's agent picker offers. */
async function agentChoices(page: Page): Promise<string[]> {
  const picker = page.getByTestId(TEST_IDS.filterAgent);
  await picker.locator('summary').click();
  const names = await page
    .getByTestId(`${TEST_IDS.filterAgent}-option`)
    .evaluateAll((options) => options.map((o) => o.getAttribute('data-value') ?? ''));
  await picker.locator('summary').click();
  return names;
}

/** The badge of a session that has ended ("done", or how it ended otherwise). */
const ENDED = /^(done|truncated|ended by error|stopped)$/;

/**
 * Events that do not decode get no agent of their own. A payload cut by a raw newline still
 * names its agent in its bytes and stays that agent's row: there is no phantom root agent
 * "main 2", `agent == "main"` finds every row, and the timeline and Blocks count the same
 * agents. A line that names none is shown as unattributed, in grey, and is no agent.
 */
test('a raw newline fault keeps its rows with the agent the bytes name', async ({
  app,
  connect,
  timeline,
  blocks,
  page,
}) => {
  await connect.chooseDemo({ scenario: 'fault-raw-newline', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState(ENDED);
  const total = await timeline.total();

  expect(await agentChoices(page)).toEqual(['main']);
  await timeline.filter('agent == "main"');
  await expect(timeline.count).toHaveText(`${total} of ${total} envelopes`);
  await timeline.showLanes();
  await expect(timeline.lanes).toHaveCount(1);
  await timeline.showTable();
  await app.show('blocks');
  await expect(blocks.count).toContainText('· 1 agent');
  await app.expectNoErrors();
});

test('a line naming no agent is unattributed, never an agent "main 2"', async ({ app, timeline, blocks, page }) => {
  const folder = await mkdtemp(join(tmpdir(), 'inspector-e2e-25-unattributed-'));
  try {
    const agent = '0b6c8804-e6f9-4c9d-ba2f-b8a95a7492b8';
    const envelope = (type: string, delta: string, final = true) =>
      `data: ${JSON.stringify({ type, agent, final, delta })}\n\n`;
    const path = join(folder, 'stray-line.sse');
    await writeFile(
      path,
      [
        envelope('meta_init', JSON.stringify({ format: 'json', agent_uuid: agent, parent_agent_uuid: null })),
        envelope('text', 'Hello', false),
        'data: a stray line that is not JSON\n\n',
        envelope('text', ''),
        'data: [DONE]\n\n',
      ].join(''),
    );
    await app.openFiles(path);
    await app.expectState(ENDED);
    await expect(timeline.row(2)).toContainText('unattributed');
    await expect(timeline.row(2)).not.toContainText('main 2');
    await app.screenshot('25-unattributed');
    expect(await agentChoices(page)).toEqual(['main', 'unattributed']);
    await timeline.filter('agent == "main"');
    await expect(timeline.count).toHaveText('4 of 5 envelopes');
    await app.show('blocks');
    await expect(blocks.count).toContainText('· 1 agent');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
