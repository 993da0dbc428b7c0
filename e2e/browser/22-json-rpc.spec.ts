import { providerFixturePath } from '../../src-main/testing/fixtures';
import { expect, test } from './fixtures';

/**
 * JSON-RPC streams (MCP Streamable HTTP, A2A streaming): a capture opened as a file, and live
 * connections to the demo agent's `/mcp` and `/a2a` through their connect presets. Each shows
 * progress and the task's lifecycle on the unified surface in the timeline, tool results,
 * artifacts and the exchange's summary as blocks, and its findings in the diagnostics view.
 */
test('an MCP tools/call capture: progress as tool-call status, the result as blocks, done with no finding', async ({
  app,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(providerFixturePath('json-rpc/mcp-tools-call.sse'));
  await app.expectView('timeline');
  // It ends at its response, not at [DONE].
  await app.expectState('done');
  await app.expectNoErrors();
  await expect(timeline.rowUnified.filter({ hasText: 'tool_call_status' }).first()).toBeVisible();
  await app.screenshot('22-mcp-capture-timeline');

  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('Paris: 18 °C, light rain');
  await blocks.expectKinds(['image', 'resource_link', 'structured_content', 'message']);
  await expect(await blocks.messageFacts()).toContainText('completed');
  await app.screenshot('22-mcp-capture-blocks');

  await app.show('diagnostics');
  await expect(diagnostics.empty).toBeVisible();
  expect(await diagnostics.rules()).toEqual([]);
});

test('MCP live through its preset: a tool error is a warning, and the stream still ends done', async ({
  app,
  connect,
  blocks,
  diagnostics,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'mcp', scenario: 'mcp-tool-error', pace: 'fast' });
  await expect(connect.url).toHaveValue(/\/mcp\?pace=fast$/);
  await app.screenshot('22-mcp-connect');
  await connect.run('done');

  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('no city named Atlantis');

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual(['json-rpc.tool-error']);
  await app.screenshot('22-mcp-live-diagnostics');
});

test('A2A live through its preset: the task streams its artifact, then fails, and the stream ends by error', async ({
  app,
  connect,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'a2a', scenario: 'a2a-failed', pace: 'fast' });
  await expect(connect.url).toHaveValue(/\/a2a\?pace=fast$/);
  await connect.run('ended by error');
  // The task's lifecycle on the unified surface: started, moved, stopped.
  await expect(timeline.rowUnified.filter({ hasText: 'message_start' }).first()).toBeVisible();
  await expect(timeline.rowUnified.filter({ hasText: 'message_stop' }).first()).toBeVisible();

  await app.show('blocks');
  await expect(blocks.ofKind('text').filter({ hasText: 'Chapter 1 introduces' })).toBeVisible();
  await expect(await blocks.messageFacts()).toContainText('failed');
  await app.screenshot('22-a2a-live-blocks');

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual(['json-rpc.task-failed']);
  await app.screenshot('22-a2a-live-diagnostics');
});
