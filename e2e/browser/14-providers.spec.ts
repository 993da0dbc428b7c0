import { providerFixturePath } from '../../src-main/testing/fixtures';
import { BLOCK_IDS } from '../../src-renderer/views/blocks/testids';
import { TOOL_IDS } from '../../src-renderer/views/tools/testids';
import { expect, test } from './fixtures';

/**
 * The provider APIs' own streams, per provider: a capture opened as a file, and a live
 * connection to the demo agent's endpoint through the connect form's preset. Each shows its
 * unified events beside the wire events in the timeline, its blocks with the message's
 * usage in the blocks view, and its findings in the diagnostics view.
 */
const PROVIDERS = [
  {
    provider: 'anthropic',
    dialect: 'anthropic-messages',
    capture: 'anthropic-messages/text-citations.sse',
    captureState: 'done',
    captureKinds: ['thinking', 'text', 'message'],
    usage: /412 in · 38 out/,
    live: {
      scenario: 'error-midstream',
      rule: 'provider.api-error',
      kinds: ['text', 'error', 'message'],
      state: 'ended by error',
    },
  },
  {
    provider: 'openai',
    dialect: 'openai-responses',
    capture: 'openai-responses/builtin-tools.sse',
    // Its custom tool call is the client's to run: the response waits for its output.
    captureState: 'awaiting tools',
    captureKinds: ['server_tool_call', 'server_tool_result', 'tool_result', 'custom_tool_call', 'text', 'message'],
    usage: /900 in · 120 out/,
    live: {
      scenario: 'incomplete',
      rule: 'provider.response-incomplete',
      kinds: ['text', 'message'],
      state: 'incomplete',
    },
  },
] as const;

for (const p of PROVIDERS) {
  test(`${p.dialect}: a capture shows unified events, blocks with usage, and diagnostics`, async ({
    app,
    timeline,
    blocks,
    diagnostics,
  }) => {
    await app.openFiles(providerFixturePath(p.capture));
    await app.expectView('timeline');
    // It ends at its own terminal event (message_stop, response.completed), not at [DONE].
    await app.expectState(p.captureState);
    await app.expectNoErrors();
    await expect(timeline.rowUnified.first()).toBeVisible();
    await expect(timeline.rowUnified.first()).toContainText('message_start');
    await timeline.select(0);
    await expect(timeline.unifiedEvent).toContainText('stream.message_start');
    await app.screenshot(`14-${p.provider}-timeline`);

    await app.show('blocks');
    for (const kind of p.captureKinds) await expect(blocks.ofKind(kind).first(), `a ${kind} block`).toBeVisible();
    // The message's summary is the last block; its body loads once it is scrolled near.
    await expect(await blocks.messageFacts()).toContainText(p.usage);
    await app.screenshot(`14-${p.provider}-blocks`);

    await app.show('diagnostics');
    await expect(diagnostics.summary).toBeVisible();
    expect(await diagnostics.rules()).not.toContain('stream.missing-done');
  });

  test(`${p.dialect}: the demo's endpoint streams live through the connect preset`, async ({
    app,
    connect,
    timeline,
    blocks,
    diagnostics,
  }) => {
    await app.show('connect');
    await connect.chooseProvider({ provider: p.provider, scenario: p.live.scenario, pace: 'fast' });
    await expect(connect.url).toHaveValue(
      new RegExp(`/v1/${p.provider === 'anthropic' ? 'messages' : 'responses'}\\?pace=fast$`),
    );
    await app.screenshot(`14-${p.provider}-connect`);
    const wide = app.page.viewportSize();
    await app.page.setViewportSize({ width: 1024, height: 700 });
    await app.screenshot(`14-${p.provider}-connect-1024`);
    if (wide) await app.page.setViewportSize(wide);
    await connect.run();
    await expect(timeline.rowUnified.first()).toBeVisible();
    // An API error event ends the stream by error, an incomplete response incomplete: never as done.
    await app.expectState(p.live.state);

    await app.show('blocks');
    for (const kind of p.live.kinds) await expect(blocks.ofKind(kind).first(), `a ${kind} block`).toBeVisible();
    await blocks.ofKind('message').scrollIntoViewIfNeeded();
    await expect(blocks.ofKind('message').getByTestId(BLOCK_IDS.metaJson)).toContainText(/\d+ in · \d+ out/);

    await app.show('diagnostics');
    await expect.poll(() => diagnostics.rules()).toContain(p.live.rule);
    await app.screenshot(`14-${p.provider}-live-diagnostics`);
  });
}

test('openai-responses: an MCP call that needs approval is approved by hand; the API runs it in leg 1', async ({
  app,
  connect,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.runProvider('openai', 'mcp-approval', 'awaiting approval');
  await expect(tools.prompt).toContainText('The agent is waiting for an approval');
  await expect(tools.tool('mcpr_demo_delete')).toContainText('delete_event');
  await app.screenshot('14-openai-mcp-approval-prompt');

  // The run waits for this one approval: Approve sends it at once.
  await tools.quickAnswer('mcpr_demo_delete', 'approve');
  await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
  await app.expectState('done');
  await app.show('blocks');
  await blocks.expectNoneLive();
  // The approval request's block says where its answer went; the continuation is a response of its own.
  await expect(blocks.view.getByTestId(BLOCK_IDS.frontendAnswer)).toHaveText('approval sent in leg 1');
  await expect(blocks.view).toContainText('The stand-up is deleted.');
  await expect(blocks.ofKind('server_tool_result').last()).toContainText('deleted evt_1');
  await app.expectNoErrors();
});

test('anthropic-messages: a turn paused with pause_turn is continued by hand; the turn goes on in leg 1', async ({
  app,
  connect,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.runProvider('anthropic', 'server-tools', 'paused turn');
  await expect(tools.prompt).toContainText('The agent is waiting for its paused turn to be continued');
  await expect(tools.tools).toHaveCount(0);
  await expect(tools.prompt.getByTestId(TOOL_IDS.noCall)).toContainText('No call to answer');
  await expect(tools.submitButton).toHaveText('Continue the turn');
  await app.show('blocks');
  const awaiting = blocks.ofKind('awaiting_frontend_tools');
  await awaiting.scrollIntoViewIfNeeded();
  await expect(awaiting.getByTestId(BLOCK_IDS.awaitingBlock)).toContainText('The model paused its turn (pause_turn)');
  await app.screenshot('14-anthropic-pause-turn');

  await tools.submit();
  await expect(tools.prompt).toBeHidden({ timeout: 15_000 });
  await app.expectState('done');
  await blocks.expectNoneLive();
  await expect(blocks.view).toContainText('Tomorrow: rain, 16 °C.');
  await app.expectNoErrors();
});

test('openai-responses: a computer call waits for its screenshot; a text answer is refused, a screenshot continues in leg 1', async ({
  app,
  connect,
  blocks,
  tools,
}) => {
  await app.show('connect');
  await connect.runProvider('openai', 'computer-use', 'awaiting tools');
  // What to do and the safety check to acknowledge are the call's input.
  await expect(tools.tool('call_demo_computer')).toContainText('computer');
  await expect(tools.tool('call_demo_computer')).toContainText('irrelevant_domain');
  // No one-click "ok", JSON or error the API would refuse: the answer box says what the call takes.
  await expect(tools.tool('call_demo_computer').getByTestId(`${TOOL_IDS.quickAnswer}-ok`)).toHaveCount(0);
  await expect(tools.tool('call_demo_computer').getByRole('checkbox', { name: 'is_error' })).toHaveCount(0);
  await expect(tools.tool('call_demo_computer').getByTestId(TOOL_IDS.resultText)).toHaveAttribute(
    'placeholder',
    /^Answered with a screenshot: its URL/,
  );
  // Nothing given yet is no screenshot: said as what to do, and nothing to send.
  await expect(tools.tool('call_demo_computer')).toContainText('Give a screenshot: its URL');
  await expect(tools.submitButton).toBeDisabled();

  // The API takes a screenshot and nothing else: a text answer is refused before anything is sent.
  await tools.answerText('call_demo_computer', 'clicked it');
  await tools.submit();
  await expect(app.errorItems).toContainText(/Computer call call_demo_computer is answered with a screenshot/);
  await expect(tools.prompt).toBeVisible();
  await app.screenshot('14-openai-computer-refused');
  await app.errorItems.getByRole('button', { name: 'Dismiss' }).click();

  await tools.sendTexts({ call_demo_computer: 'data:image/png;base64,iVBORw0KGgo=' });
  await app.expectState('done');
  await app.show('blocks');
  await blocks.expectNoneLive();
  await expect(blocks.view.getByTestId(BLOCK_IDS.frontendAnswer)).toHaveText('result sent in leg 1');
  await expect(blocks.view).toContainText('Paris: sunny, 21 °C.');
  await app.expectNoErrors();
});
