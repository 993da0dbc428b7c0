import { externalFixturePath } from '../../src-main/testing/fixtures';
import { DIAGNOSTIC_IDS } from '../../src-renderer/views/diagnostics/testids';
import { expect, test } from './fixtures';

/**
 * OpenAI Chat Completions streams: a capture recorded from DeepSeek by another project's test
 * suite opened as a file, and the demo agent's `POST /v1/chat/completions` through its connect
 * preset. Each is detected as the Chat Completions dialect, shows its blocks (reasoning,
 * tool calls, text, one message per choice with its usage) and its findings, and ends with the
 * status its stream earns: done at `[DONE]`, ended by error after an error in a chunk, awaiting
 * tools after a finish on tool_calls, whose calls are answered by hand and continued as an
 * OpenAI SDK user continues them.
 */

test('openai-chat: a recorded DeepSeek capture shows reasoning, the tool call and the usage, and waits for the client', async ({
  app,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(externalFixturePath('openai-chat/deepseek-reasoning-tool-call.sse'));
  await app.expectView('timeline');
  // The API runs no tool: its finish on tool_calls leaves the call to the client.
  await app.expectState('awaiting tools');
  await app.expectNoErrors();
  await expect(timeline.rowUnified.first()).toContainText('message_start');
  await timeline.select(0);
  await expect(timeline.unifiedEvent).toContainText('stream.message_start');
  await app.screenshot('22-openai-chat-capture-timeline');

  await app.show('blocks');
  await expect(blocks.ofKind('thinking').first()).toContainText('The user asks about the weather in San Francisco.');
  await expect(blocks.ofKind('tool_call').first()).toContainText('San Francisco');
  await expect(await blocks.messageFacts()).toContainText(/374 in · 61 out/);
  await app.screenshot('22-openai-chat-capture-blocks');

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual([]);
  // The leg's 10,024 bytes read as the header reads them (decimal), not as the charts' axes do (9.8 KiB).
  await expect(diagnostics.view.getByTestId(DIAGNOSTIC_IDS.chartFirstEnvelope).locator('tbody td').nth(3)).toHaveText(
    '10 kB',
  );
});

test('openai-chat: two choices through the connect preset are two messages, done at [DONE]', async ({
  app,
  connect,
  blocks,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'openai-chat', scenario: 'n-choices', pace: 'fast' });
  await expect(connect.url).toHaveValue(/\/v1\/chat\/completions\?pace=fast$/);
  await app.screenshot('22-openai-chat-connect');
  await connect.run('done');

  await app.show('blocks');
  await expect(blocks.ofKind('text')).toHaveCount(2);
  await expect(blocks.ofKind('text').first()).toContainText('Paris is the capital.');
  await expect(blocks.ofKind('text').nth(1)).toContainText('The capital is Paris.');
  await expect(blocks.ofKind('message')).toHaveCount(2);
  // Each choice's summary says which choice it is, and that the usage is the whole completion's.
  await expect(blocks.ofKind('message').nth(1)).toContainText(/choice_index\s*1/);
  await expect(blocks.ofKind('message').nth(1)).toContainText(/\d+ in · \d+ out \(all choices\)/);
  await app.screenshot('22-openai-chat-live-choices');
});

test('openai-chat: an error inside a chunk (OpenRouter) ends the live stream by error, and says so', async ({
  app,
  connect,
  blocks,
  diagnostics,
}) => {
  await app.show('connect');
  await connect.runProvider('openai-chat', 'openrouter-error', 'ended by error');

  await app.show('blocks');
  await blocks.expectKinds(['thinking', 'text', 'error', 'message']);
  await expect(blocks.ofKind('thinking').first()).toContainText('Looking up the capital.');

  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual(['provider.api-error']);
  const findings = await diagnostics.expand('provider.api-error');
  await expect(findings.first()).toContainText('Provider disconnected unexpectedly');
  await app.screenshot('22-openai-chat-live-diagnostics');
});

test('openai-chat: parallel tool calls answered by hand; the conversation goes back with tool messages and the answer is leg 1', async ({
  app,
  connect,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.runProvider('openai-chat', 'parallel-tools', 'awaiting tools');

  await expect(tools.prompt).toBeVisible();
  await expect(tools.tools).toHaveCount(2);
  await expect(tools.tool('call_demo_paris')).toContainText('get_weather');
  await expect(tools.state).toContainText('again with the answers, as an OpenAI Chat Completions client');
  await app.screenshot('22-openai-chat-client-tools-prompt');
  await tools.sendTexts({ call_demo_paris: 'sunny, 21 °C', call_demo_tokyo: 'rain, 14 °C' });
  await app.expectState('done');
  await expect(app.page.getByText('2 legs')).toBeVisible();

  await app.show('blocks');
  await expect(blocks.view).toContainText('Tokyo: rain, 14 °C.');
  await app.expectNoErrors();
  await app.screenshot('22-openai-chat-client-tools-continued');
});
