import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';
import type { AppPage } from './pages/app-page';
import type { ConnectPage } from './pages/connect-page';

/**
 * "xml ⇄ json" runs a request again in the upstream agent's two wire formats; a provider API
 * (Anthropic Messages) has one format, so the action is not offered there (it ran the same
 * request twice). Two runs of one provider request differ in their timing fields only, which
 * the diff never counts as differences.
 */
async function runAnthropic(app: AppPage, connect: ConnectPage): Promise<void> {
  await app.show('connect');
  // At its realistic pace: each run's clock then measures its own times.
  await connect.chooseProvider({ provider: 'anthropic', scenario: 'tool-use' });
  await connect.run();
  // Its message ends at stop_reason tool_use: the run waits for a client to answer the call.
  await app.expectState('awaiting tools');
}

test('a provider stream offers no xml ⇄ json, and two of its runs diff with no difference', async ({
  app,
  connect,
  diff,
  inspector,
  page,
}) => {
  await runAnthropic(app, connect);
  await expect(page.getByTestId(TEST_IDS.replayButton)).toBeVisible();
  await expect(page.getByTestId(TEST_IDS.runFormats)).toHaveCount(0);
  await app.screenshot('25-provider-header');
  await runAnthropic(app, connect);

  const [second, first] = await inspector.listSessions();
  await app.show('diff');
  await diff.left.selectOption(first!.id);
  await diff.right.selectOption(second!.id);
  await expect(diff.result).toHaveAttribute('data-stale', 'false', { timeout: 20_000 });
  expect(await diff.differences()).toBe(0);
  await expect(diff.rowsWithStatus('changed')).toHaveCount(0);

  // The upstream agent's /agent/run keeps the action.
  await app.show('connect');
  await connect.chooseDemo({ scenario: 'tour', format: 'json', pace: 'fast' });
  await connect.connect();
  await app.expectState('done');
  await expect(page.getByTestId(TEST_IDS.runFormats)).toBeVisible();
  await app.expectNoErrors();
});
