import { externalFixturePath, providerFixturePath } from '../../src-main/testing/fixtures';
import { BLOCK_IDS } from '../../src-renderer/views/blocks/testids';
import { expect, test } from './fixtures';

/**
 * AG-UI runs (docs/protocols/ag-ui.md): a run recorded by the AG-UI dojo opened as a file, and
 * the demo agent's `POST /ag-ui` through its connect preset — the shared state after each
 * delta, a RUN_ERROR's finding, and a frontend tool answered by hand, whose answer goes back
 * as a new RunAgentInput and streams in as the session's next leg.
 */

test('ag-ui: a recorded run shows its state, tool call, result, text and usage, and ends done with no finding', async ({
  app,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.openCleanCapture(externalFixturePath('ag-ui/dojo/strands-typescript-shared-state-recipe.sse'));
  await expect(timeline.rowUnified.first()).toContainText('message_start');
  await app.screenshot('22-ag-ui-capture-timeline');

  await app.show('blocks');
  await blocks.expectKinds(['state', 'tool_call', 'tool_result', 'text', 'message']);
  await expect(blocks.ofKind('text').first()).toContainText("Done! I've completed that for you.");
  await expect(blocks.ofKind('state').last()).toContainText('Pasta Aglio e Olio');
  await expect(await blocks.messageFacts()).toContainText(/327 in · 162 out/);
  await app.screenshot('22-ag-ui-capture-blocks');

  await app.show('diagnostics');
  await expect(diagnostics.view).toBeVisible();
  await expect(diagnostics.empty).toBeVisible();
});

test('ag-ui: the demo agent’s state run streams through the preset; each delta’s state is a block', async ({
  app,
  connect,
  blocks,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'ag-ui', scenario: 'state', pace: 'fast' });
  await expect(connect.url).toHaveValue(/\/ag-ui\?pace=fast$/);
  await app.screenshot('22-ag-ui-connect');
  await connect.run('done');

  await app.show('blocks');
  await expect(blocks.ofKind('state')).toHaveCount(5);
  await expect(blocks.ofKind('state').last()).toContainText('"booking"');
  await expect(blocks.ofKind('text').first()).toContainText('The train is booked');
  await app.screenshot('22-ag-ui-live-state');
});

test('ag-ui: each state block says what changed the state: the snapshot, or the delta with its operations', async ({
  app,
  blocks,
}) => {
  await app.openCleanCapture(providerFixturePath('ag-ui/state.sse'));
  await app.show('blocks');
  const states = blocks.ofKind('state');
  await expect(states).toHaveCount(5);
  await expect(states.nth(0).getByTestId(BLOCK_IDS.stateChange)).toHaveText('STATE_SNAPSHOT');
  const delta = states.nth(3).getByTestId(BLOCK_IDS.stateChange);
  await expect(delta.locator('li')).toHaveText([
    'test /status "planning"',
    'replace /plan/steps/0/done true',
    'replace /status "booking"',
  ]);
  await expect(delta).toContainText('STATE_DELTA');
  await expect(states.nth(3)).toContainText('"status": "booking"');
  await states.nth(3).scrollIntoViewIfNeeded();
  await app.screenshot('22-ag-ui-state-change');
});

test('ag-ui: RUN_ERROR mid-stream ends the session by error, with its finding', async ({
  app,
  connect,
  blocks,
  diagnostics,
}) => {
  await app.show('connect');
  await connect.runProvider('ag-ui', 'run-error', 'ended by error');

  await app.show('blocks');
  await expect(blocks.ofKind('error').first()).toContainText('The model provider is overloaded.');
  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toContain('ag-ui.run-error');
  await app.screenshot('22-ag-ui-live-diagnostics');
});

test('ag-ui: a frontend tool answered by hand continues the run as a new RunAgentInput, the next leg', async ({
  app,
  connect,
  timeline,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.runProvider('ag-ui', 'frontend-tool', 'awaiting tools');

  await expect(tools.prompt).toBeVisible();
  await expect(tools.tool('call-demo-confirm')).toContainText('user_confirm');
  await expect(tools.messages).toHaveText('Book the 09:40 train to Lyon for tomorrow?');
  const paused = await timeline.total();
  await app.screenshot('22-ag-ui-tools-prompt');

  await tools.quickAnswer('call-demo-confirm', 'yes');

  await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
  await timeline.expectTotalAtLeast(paused + 3);
  await app.expectState('done');
  await expect(app.page.getByText('2 legs')).toBeVisible();
  await app.show('blocks');
  // The continuation is a new run (its own runId), so its blocks are the thread of a second agent.
  await expect(blocks.threads).toHaveCount(2);
  await expect(blocks.threads.nth(1)).toContainText('Confirmed — the 09:40 train to Lyon is booked.');
  // The call's result went back in the new RunAgentInput (leg 1), not in any stream.
  await expect(blocks.threads.nth(0).getByTestId(BLOCK_IDS.frontendAnswer)).toHaveText('result sent in leg 1');
  await app.screenshot('22-ag-ui-continuation');
});
