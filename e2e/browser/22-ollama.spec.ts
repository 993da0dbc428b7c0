import { externalFixturePath } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { expect, test } from './fixtures';

/**
 * Ollama's native API (`/api/generate`, `/api/chat`: NDJSON): a stream a live Ollama server
 * sent, saved one chunk per line by another project, opened as a file; and the demo agent's
 * Ollama endpoint through its connect preset, whole and cut. Each shows its blocks and the
 * message's usage, and ends as the stream says: done at its done line, truncated without it,
 * awaiting tools after tool calls, which are answered by hand and sent back as `tool` messages.
 */

test('a recorded /api/generate stream opens as Ollama: its text, its model and counts, done, no finding', async ({
  app,
  blocks,
  diagnostics,
}) => {
  await app.openCleanCapture(externalFixturePath('ollama/ollama-bash-lib-generate.ndjson'));
  await expect(app.page.getByTestId(TEST_IDS.sessionHeader)).toContainText('Decoded as Ollama native API');
  await app.expectState('done');
  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('A rabbit is');
  // Its blocks name no agent: they are unattributed, never "0 agents".
  await expect(blocks.count).toHaveText(/^\d+ blocks · unattributed$/);
  const facts = await blocks.messageFacts();
  await expect(facts).toContainText('dolphin3:8b');
  await app.screenshot('22-ollama-capture-blocks');
  await app.show('diagnostics');
  await expect(diagnostics.empty).toBeVisible();
});

test("the demo's Ollama /api/chat streams live through its preset: two whole tool calls, answered by hand", async ({
  app,
  connect,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'ollama-chat', scenario: 'tool-call', pace: 'fast' });
  await expect(connect.url).toHaveValue(/\/ollama\/api\/chat\?(.*&)?pace=fast$/);
  await connect.run();
  // Ollama runs no tool: the calls wait for the client.
  await app.expectState('awaiting tools');
  await app.show('blocks');
  const calls = blocks.ofKind('tool_call');
  await expect(calls).toHaveCount(2);
  await expect(calls.first()).toContainText('get_weather');
  await expect(calls.first()).toContainText('Paris');
  await app.screenshot('22-ollama-live-blocks');

  await expect(tools.tools).toHaveCount(2);
  await expect(tools.state).toContainText('again with the answers, as an Ollama native API client');
  await tools.sendTexts({ call_0: 'sunny, 21 °C', call_1: '14:05' });
  await app.expectState('done');
  await expect(blocks.view).toContainText('In Paris it is sunny and 21 °C.');
  await app.expectNoErrors();
});

test('a cut Ollama stream is truncated, never done, with the missing done line as its finding', async ({
  app,
  connect,
  diagnostics,
}) => {
  await app.show('connect');
  await connect.runProvider('ollama-chat', 'cut', 'truncated');
  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toContain('provider.missing-terminal');
  await app.screenshot('22-ollama-cut-diagnostics');
});
