import { externalFixturePath, providerFixturePath } from '../../src-main/testing/fixtures';
import { BLOCK_IDS } from '../../src-renderer/views/blocks/testids';
import { DIAGNOSTIC_IDS } from '../../src-renderer/views/diagnostics/testids';
import { TOOL_IDS } from '../../src-renderer/views/tools/testids';
import { expect, test } from './fixtures';

/**
 * The Vercel AI SDK's stream to a `useChat` frontend (docs/protocols/ai-sdk-ui.md), in its two
 * wires: captures opened as files (the UI message stream's SSE, the v4 data stream's lines),
 * live connections to the demo agent's `POST /api/chat` through the connect presets, and a run
 * that waits for a client-side tool, answered by hand and continued as `useChat` continues it.
 */

test('a UI message stream capture: unified events, tool calls with their results, the message usage, no finding', async ({
  app,
  timeline,
  blocks,
  diagnostics,
}) => {
  await app.openCleanCapture(providerFixturePath('ai-sdk-ui/parallel-tools.sse'));
  await expect(timeline.rowUnified.first()).toContainText('message_start');
  await app.screenshot('22-ai-sdk-ui-timeline');

  await app.show('blocks');
  await blocks.expectKinds(['tool_call', 'tool_result', 'text', 'message']);
  await expect(blocks.ofKind('text').first()).toContainText('Paris: 21 °C and sunny.');
  await expect(await blocks.messageFacts()).toContainText(/130 in · 36 out/);
  await app.screenshot('22-ai-sdk-ui-blocks');

  await app.show('diagnostics');
  await expect(diagnostics.view).toBeVisible();
  expect(await diagnostics.rules()).toEqual([]);
});

test('a v4 data stream capture is framed by lines: each part a frame, its text joined, done at d:', async ({
  app,
  timeline,
  blocks,
}) => {
  await app.openCleanCapture(externalFixturePath('vercel-ai/data-stream-text.txt'));
  await timeline.select(2);
  await timeline.detailTab('frame');
  await expect(timeline.frameView).toContainText('0:"Hello"');
  await expect(timeline.frameView).toContainText('one line of a line-framed stream');
  await app.screenshot('22-ai-sdk-data-stream-frame');
  await app.show('blocks');
  await expect(blocks.ofKind('text').first()).toContainText('Hello, world!');
});

test("a generated image (a file part) shows in its block, from the UI stream's data: URL and the v4 stream's base64", async ({
  app,
  blocks,
}) => {
  for (const capture of ['ai-sdk-ui/sources-data.sse', 'ai-sdk-ui/sources-data.txt']) {
    await app.openCleanCapture(providerFixturePath(capture));
    await app.show('blocks');
    const file = blocks.ofKind('file').first();
    await file.scrollIntoViewIfNeeded();
    const image = file.getByTestId(BLOCK_IDS.imageInline);
    await expect(image, capture).toContainText('image/png · 126 B (data URI)');
    // A source part's page is a link (opened only on click), with its title.
    const source = blocks.ofKind(capture.endsWith('.sse') ? 'source-url' : 'source').first();
    await expect(source.getByTestId(BLOCK_IDS.payloadLink), capture).toHaveText(
      'Paris — Wikipediahttps://en.wikipedia.org/wiki/Paris',
    );
    // The demo's chart is a real PNG: the page decoded it to its 48 × 32 pixels.
    await expect.poll(() => image.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
  }
  await app.screenshot('22-ai-sdk-ui-file-image');
});

test("a v4 data stream's charts say which types have more payload than wire bytes: the dialect's own summaries", async ({
  app,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(providerFixturePath('ai-sdk-ui/client-tool.txt'));
  await app.show('blocks');
  await expect(blocks.view.getByTestId(BLOCK_IDS.frontendAnswer)).toHaveText('awaits the frontend');
  await app.show('diagnostics');
  await expect(diagnostics.view.getByTestId(DIAGNOSTIC_IDS.chartFrameSizes)).toContainText('Frame sizes');
  const note = diagnostics.view.getByTestId(DIAGNOSTIC_IDS.chartBeyondWire);
  await expect(note).toContainText('More payload than wire bytes: awaiting_frontend_tools, message.');
  await app.screenshot('22-ai-sdk-data-stream-charts');
});

test('a v4 data stream that fails mid-stream ends by error, and the diagnostics say so', async ({
  app,
  blocks,
  diagnostics,
}) => {
  await app.openFiles(providerFixturePath('ai-sdk-ui/error-midstream.txt'));
  await app.expectView('timeline');
  await app.expectState('ended by error');
  await app.show('blocks');
  await expect(blocks.ofKind('error').first()).toBeVisible();
  await app.show('diagnostics');
  await expect.poll(() => diagnostics.rules()).toEqual(['provider.api-error']);
  const findings = await diagnostics.expand('provider.api-error');
  await expect(findings.first()).toContainText('The model is overloaded');
  await app.screenshot('22-ai-sdk-data-stream-error');
});

for (const live of [
  {
    preset: 'ai-sdk-ui',
    path: /\/api\/chat\?pace=fast$/,
    scenario: 'sources-data',
    state: 'done',
    kinds: ['text', 'source-url', 'data-weather', 'file'],
    rules: [],
  },
  {
    preset: 'ai-sdk-data',
    path: /\/api\/chat\?protocol=data&pace=fast$/,
    scenario: 'cut',
    state: 'truncated',
    kinds: ['text', 'message'],
    rules: ['provider.missing-terminal'],
  },
] as const) {
  test(`the ${live.preset} preset streams the demo's /api/chat live: ${live.scenario}`, async ({
    app,
    connect,
    blocks,
    diagnostics,
  }) => {
    await app.show('connect');
    await connect.chooseProvider({ provider: live.preset, scenario: live.scenario, pace: 'fast' });
    await expect(connect.url).toHaveValue(live.path);
    await app.screenshot(`22-${live.preset}-connect`);
    await connect.run(live.state);

    await app.show('blocks');
    for (const kind of live.kinds) await expect(blocks.ofKind(kind).first(), `a ${kind} block`).toBeVisible();
    await app.show('diagnostics');
    await expect(diagnostics.view).toBeVisible();
    await expect.poll(() => diagnostics.rules()).toEqual([...live.rules]);
    await app.screenshot(`22-${live.preset}-live-${live.scenario}`);
  });
}

for (const run of [
  { preset: 'ai-sdk-ui', answer: 'yes', effect: 'Confirmed — the draft "Q3 plan" is deleted.' },
  { preset: 'ai-sdk-data', answer: 'no', effect: 'Understood — the draft "Q3 plan" stays.' },
] as const) {
  test(`${run.preset}: a client-side tool answered by hand; the conversation goes back and its continuation is leg 1`, async ({
    app,
    connect,
    blocks,
    tools,
  }) => {
    await app.show('connect');
    await connect.runProvider(run.preset, 'client-tool', 'awaiting tools');

    await expect(tools.prompt).toBeVisible();
    await expect(tools.tools).toHaveCount(1);
    await expect(tools.tool('call_confirm')).toContainText('user_confirm');
    await expect(tools.messages).toHaveText('Delete the draft "Q3 plan"?');
    // The AI SDK continues its own runs: the same request again, no tool-results path to choose.
    await expect(tools.state).toContainText('again with the answers, as a Vercel AI SDK UI stream client');
    await expect(tools.prompt.getByText('Request options…')).toHaveCount(0);
    await app.screenshot(`22-${run.preset}-client-tool-prompt`);

    await tools.quickAnswer('call_confirm', run.answer);
    await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
    await app.expectState('done');
    await expect(app.page.getByText('2 legs')).toBeVisible();

    await app.show('blocks');
    await blocks.expectNoneLive();
    await expect(blocks.legDividers.filter({ hasText: 'leg 1' })).toBeVisible();
    await expect(blocks.view).toContainText(run.effect);
    // The call's result went back in leg 1's request: the stream never repeats it.
    await expect(blocks.view.getByTestId(BLOCK_IDS.frontendAnswer)).toHaveText('result sent in leg 1');
    await expect(blocks.view.getByTestId(TOOL_IDS.prompt)).toHaveCount(0);
    await app.expectNoErrors();
    await app.screenshot(`22-${run.preset}-client-tool-continued`);
  });
}

test('ai-sdk-ui: a call that needs approval is denied by hand with a reason; the server does not run it, and says so in leg 1', async ({
  app,
  connect,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.runProvider('ai-sdk-ui', 'tool-approval', 'awaiting approval');

  await expect(tools.prompt).toContainText('The agent is waiting for an approval');
  const call = tools.tool('call_delete');
  await expect(call.getByTestId(TOOL_IDS.approval)).toHaveText('needs approval');
  // An approval has no result form: no text or JSON mode, no is_error.
  await expect(call.getByTestId(TOOL_IDS.modeJson)).toHaveCount(0);
  await expect(call.getByTestId(TOOL_IDS.isError)).toHaveCount(0);
  await expect(tools.submitButton).toBeDisabled();
  await call.getByTestId(TOOL_IDS.resultText).fill('keep my notes');
  await app.show('blocks');
  await expect(blocks.view.getByTestId(BLOCK_IDS.awaitingBlock)).toContainText('waits for its approval');
  await app.screenshot('22-ai-sdk-ui-approval-prompt');

  await tools.quickAnswer('call_delete', 'deny');
  await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
  await app.expectState('done');

  await app.show('blocks');
  await blocks.expectNoneLive();
  await expect(blocks.view).toContainText('Understood — "notes.txt" stays.');
  // The denial is the call's result, linked from leg 0's call.
  await expect(blocks.ofKind('tool_result').first()).toContainText('denied');
  await app.expectNoErrors();
  await app.screenshot('22-ai-sdk-ui-approval-denied');

  // A replay pauses where the run did, with the recorded answer read back from the continuation.
  await app.replayButton.click();
  await expect(tools.prompt).toHaveAttribute('data-replay', 'true', { timeout: 15_000 });
  await expect(tools.replayNote).toHaveText('replay: the recorded answers are filled in');
  const replayed = tools.tool('call_delete');
  await expect(replayed.getByTestId(`${TOOL_IDS.quickAnswer}-deny`)).toHaveAttribute('aria-pressed', 'true');
  await expect(replayed.getByTestId(TOOL_IDS.resultText)).toHaveValue('keep my notes');
  await app.screenshot('22-ai-sdk-ui-approval-replay');
  await tools.submit();
  await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
  await expect(blocks.view).toContainText('Understood — "notes.txt" stays.');
});
