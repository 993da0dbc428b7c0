import { externalFixturePath } from '../../src-main/testing/fixtures';
import { TEST_IDS } from '../../src-renderer/testids';
import { BLOCK_IDS } from '../../src-renderer/views/blocks/testids';
import { expect, test } from './fixtures';

/**
 * Gemini's streamGenerateContent: captures recorded by another project's test suite opened
 * as files (SSE with CRLF framing, and the JSON array body the API sends without alt=sse),
 * and the demo agent's Gemini endpoint through the connect preset, in both of its framings.
 * Each shows its blocks with the message's usage, and its findings, and ends as the stream
 * says: done at its finishReason, never "truncated" for a healthy stream.
 */

test('a recorded Gemini SSE capture (CRLF) ends done at its finishReason, with its text and usage', async ({
  app,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.openCleanCapture(externalFixturePath('vercel-ai/gemini-text.crlf.sse'));
  await expect(timeline.rowUnified.first()).toContainText('message_start');
  await app.screenshot('22-gemini-capture-timeline');

  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('in strawberry');
  const facts = await blocks.messageFacts();
  await expect(facts).toContainText(/9 in · 208 out/);
  await expect(facts).toContainText('gemini-3-pro-preview');
  await app.screenshot('22-gemini-capture-blocks');

  await app.show('diagnostics');
  await expect(diagnostics.empty).toBeVisible();
});

test("the same stream's chunks saved one JSON object per line open as its events, decoded as the SSE capture was", async ({
  app,
  blocks,
}) => {
  await app.openCleanCapture(externalFixturePath('vercel-ai/gemini-text.chunks.jsonl'));
  await expect(app.page.getByTestId(TEST_IDS.sessionHeader)).toContainText('(ndjson-events)');
  await expect(app.page.getByTestId(TEST_IDS.sessionHeader)).toContainText('Decoded as Gemini');
  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('in strawberry');
});

test("an inline image whose data is no image (the capture's one-byte placeholder) says so, with its true size", async ({
  app,
  blocks,
}) => {
  await app.openCleanCapture(externalFixturePath('vercel-ai/gemini-image.crlf.sse'));
  await app.show('blocks');
  const text = blocks.ofKind('text').first();
  // `AA==` is one byte: the browser cannot decode it, and the block says that instead of a broken image.
  await expect(text.getByTestId(BLOCK_IDS.imageUndecodable)).toHaveText(
    '[image not shown: its data does not decode as an image: image/jpeg · 1 B (data URI)]',
  );
  await expect(text.getByTestId(BLOCK_IDS.imageInline)).toHaveCount(0);
});

test('a JSON array body (no alt=sse) opens element by element: the streamed call is one tool call', async ({
  app,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(externalFixturePath('vercel-ai/gemini-streamed-args.json-array.json'));
  await app.expectView('timeline');
  // Gemini runs no function the client declares: the call waits for the client.
  await app.expectState('awaiting tools');
  await app.show('blocks');
  const call = blocks.ofKind('tool_call').first();
  await expect(call).toBeVisible();
  await expect(call).toContainText('writeItems');
  await expect(call).toContainText('banana_001');
  await app.screenshot('22-gemini-json-array-blocks');
  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual([]);
});

test("the demo's Gemini endpoint streams live through its preset: code, its result with the plot, the answer", async ({
  app,
  connect,
  blocks,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'gemini', scenario: 'code-execution', pace: 'fast' });
  await expect(connect.url).toHaveValue(/\/v1beta\/models\/demo-model:streamGenerateContent\?alt=sse&pace=fast$/);
  await app.screenshot('22-gemini-connect');
  await connect.run('done');

  await app.show('blocks');
  await blocks.expectKinds(['text', 'server_tool_call', 'tool_result', 'message']);
  const result = blocks.ofKind('tool_result').first();
  await result.scrollIntoViewIfNeeded();
  await expect(result.getByTestId(BLOCK_IDS.imageInline)).toBeVisible();
  await app.screenshot('22-gemini-live-blocks');
});

test('the same endpoint without alt=sse streams one JSON array; a SAFETY finish ends it incomplete, with its finding', async ({
  app,
  connect,
  blocks,
  diagnostics,
}) => {
  await app.show('connect');
  await connect.chooseProvider({ provider: 'gemini', scenario: 'safety', pace: 'fast' });
  const url = new URL(await connect.url.inputValue());
  url.searchParams.delete('alt');
  await connect.url.fill(url.toString());
  await connect.run('incomplete');

  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('Here is how the reaction starts');
  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toContain('gemini.finish-incomplete');
  const findings = await diagnostics.expand('gemini.finish-incomplete');
  await expect(findings.first()).toContainText('SAFETY');
  await app.screenshot('22-gemini-live-diagnostics');
});
