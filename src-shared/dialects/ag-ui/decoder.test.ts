import { readdirSync } from 'node:fs';
import { describe, expect, it, test } from 'vitest';
import { externalFixturePath, listProviderFixtures, readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { endLabel, rulesOf } from './test-events';

/** The demo agent's scripted runs (resources/fixtures/providers/ag-ui), with the findings and end each must give. */
const DEMO: Record<string, { rules: string[]; end: string }> = {
  'ag-ui/text.sse': { rules: [], end: 'done' },
  'ag-ui/reasoning.sse': { rules: [], end: 'done' },
  'ag-ui/parallel-tools.sse': { rules: [], end: 'done' },
  'ag-ui/state.sse': { rules: [], end: 'done' },
  'ag-ui/frontend-tool.sse': { rules: [], end: 'awaiting tools' },
  'ag-ui/frontend-tool-answered.sse': { rules: [], end: 'done' },
  'ag-ui/run-error.sse': { rules: ['ag-ui.run-error'], end: 'ended by error' },
  'ag-ui/cut.sse': {
    rules: ['provider.missing-terminal', 'provider.block-not-stopped', 'block.unterminated'],
    end: 'truncated',
  },
};

/** Streams recorded by the AG-UI dojo's end-to-end suite and the specification's conformance streams (see the README). */
const EXTERNAL: Record<string, { rules: string[]; end: string }> = {
  'ag-ui/dojo/langgraph-typescript-frontend-tool-runs.sse': {
    rules: [
      'provider.next-message',
      'provider.next-message',
      'provider.next-message',
      'tool.call-without-result',
      'tool.call-without-result',
    ],
    end: 'done',
  },
  'ag-ui/dojo/strands-typescript-shared-state-recipe.sse': { rules: [], end: 'done' },
  'ag-ui/dojo/strands-typescript-shared-state-from-input.sse': { rules: [], end: 'done' },
  // The agent's own tool interrupted for the user's choice: the run waits for a resume, not for tools.
  'ag-ui/dojo/strands-interrupt-paused.sse': { rules: ['tool.call-without-result'], end: 'done' },
  'ag-ui/dojo/strands-interrupt-resumed.sse': { rules: ['provider.next-message'], end: 'done' },
  'ag-ui/conformance/chunk-expansion-assembles.sse': { rules: [], end: 'done' },
  'ag-ui/conformance/reasoning-span-and-message.sse': { rules: [], end: 'done' },
  'ag-ui/conformance/state-delta-applies.sse': { rules: [], end: 'done' },
  'ag-ui/conformance/content-without-start-fatal.sse': { rules: ['provider.block-not-started'], end: 'done' },
  'ag-ui/conformance/event-after-run-finished-fatal.sse': {
    rules: ['ag-ui.event-outside-run', 'block.unterminated'],
    // Not cut: a client fails the run on the event after RUN_FINISHED.
    end: 'ended by error',
  },
  'ag-ui/conformance/late-run-error-after-finished-run-continues.sse': {
    rules: ['ag-ui.run-error'],
    end: 'ended by error',
  },
  'ag-ui/conformance/open-message-at-run-finished-fatal.sse': { rules: ['provider.block-not-stopped'], end: 'done' },
  'ag-ui/conformance/state-delta-unappliable-warns-and-keeps.sse': { rules: ['ag-ui.state-delta-failed'], end: 'done' },
  'ag-ui/conformance/state-delta-unknown-op-dropped.sse': { rules: ['provider.unknown-event'], end: 'done' },
  'ag-ui/conformance/step-finished-without-start-fatal.sse': {
    rules: ['ag-ui.unbalanced', 'provider.missing-terminal'],
    end: 'truncated',
  },
};

describe('AG-UI fixtures', () => {
  test('every fixture of the dialect has its expectation here', () => {
    expect(listProviderFixtures().filter((f) => f.startsWith('ag-ui/'))).toEqual(Object.keys(DEMO).sort());
    const external = ['dojo', 'conformance'].flatMap((dir) =>
      readdirSync(externalFixturePath(`ag-ui/${dir}`)).map((f) => `ag-ui/${dir}/${f}`),
    );
    expect(external.sort()).toEqual(Object.keys(EXTERNAL).sort());
  });

  const cases = [
    ...Object.entries(DEMO).map(([name, expected]) => [name, readProviderFixture(name), expected] as const),
    ...Object.entries(EXTERNAL).map(([name, expected]) => [name, readExternalFixture(name), expected] as const),
  ];
  test.each(cases)(
    '%s: detected, decoded with exactly its findings and end, the same at every chunking',
    (_name, bytes, expected) => {
      const [first, ...rest] = decodeEveryChunking(bytes);
      expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual(
        [],
      );
      const result = decodeBytes(bytes);
      expect(result.formats).toEqual(['ag-ui']);
      expect(rulesOf(result)).toEqual(expected.rules);
      expect(endLabel(result)).toBe(expected.end);
    },
  );
});

describe('AG-UI runs decoded to blocks', () => {
  const blocksOf = (name: string) => decodeBytes(readProviderFixture(name)).blocks;

  it('text: the message, and a run summary with the usage RUN_FINISHED reports', () => {
    const blocks = blocksOf('ag-ui/text.sse');
    expect(blocks.map((b) => [b.kind, b.agent])).toEqual([
      ['text', 'run-demo-text'],
      ['message', 'run-demo-text'],
    ]);
    expect(blocks[0]?.content).toBe('Paris is the capital of France.');
    expect(blocks[1]?.parsed).toMatchObject({
      id: 'run-demo-text',
      model: 'gpt-4o',
      status: 'completed',
      stop_reason: 'success',
      usage: { input_tokens: 180, output_tokens: 9, total_tokens: 189 },
    });
  });

  it('reasoning: a thinking block, then the text its chunks spell', () => {
    const blocks = blocksOf('ag-ui/reasoning.sse');
    expect(blocks.map((b) => [b.kind, b.status, b.content])).toEqual([
      ['thinking', 'complete', 'The user asks for a capital; France’s is Paris.'],
      ['text', 'complete', 'Paris, on the Seine.'],
      ['message', 'complete', expect.any(String)],
    ]);
  });

  it('parallel-tools: two calls with parsed arguments, each linked to its result', () => {
    const blocks = blocksOf('ag-ui/parallel-tools.sse');
    const call = (id: string) => blocks.find((b) => b.kind === 'tool_call' && b.toolId === id);
    expect(call('call-weather')?.parsed).toEqual({ city: 'Paris' });
    expect(call('call-time')?.parsed).toEqual({ zone: 'Europe/Paris' });
    const result = blocks.find((b) => b.kind === 'tool_result' && b.toolId === 'call-weather');
    expect(result?.content).toBe('{"temperature":21,"sky":"clear"}');
    expect(result?.linkedBlock).toBe(call('call-weather')?.id);
    expect(call('call-time')?.linkedBlock).toBe(
      blocks.find((b) => b.kind === 'tool_result' && b.toolId === 'call-time')?.id,
    );
  });

  it('state: the whole state after the snapshot and after each delta', () => {
    const states = blocksOf('ag-ui/state.sse')
      .filter((b) => b.kind === 'state')
      .map((b) => b.parsed);
    expect(states).toEqual([
      { plan: { title: 'Trip to Lyon', steps: [] }, status: 'planning' },
      { plan: { title: 'Trip to Lyon', steps: [{ label: 'Book the train', done: false }] }, status: 'planning' },
      {
        plan: {
          title: 'Trip to Lyon',
          steps: [
            { label: 'Book the train', done: false },
            { label: 'Book the hotel', done: false },
          ],
        },
        status: 'planning',
      },
      {
        plan: {
          title: 'Trip to Lyon',
          steps: [
            { label: 'Book the train', done: true },
            { label: 'Book the hotel', done: false },
          ],
        },
        status: 'booking',
      },
      { plan: { title: 'Trip to Lyon', steps: [{ label: 'Book the train', done: true }] }, status: 'booking' },
    ]);
  });

  it('frontend-tool: the run waits for the frontend to answer user_confirm', () => {
    const awaiting = blocksOf('ag-ui/frontend-tool.sse').find((b) => b.kind === 'awaiting_frontend_tools');
    expect(awaiting?.pendingTools).toEqual([
      {
        toolUseId: 'call-demo-confirm',
        name: 'user_confirm',
        input: { message: 'Book the 09:40 train to Lyon for tomorrow?' },
      },
    ]);
  });

  it('run-error: the text so far, the error, and a failed run', () => {
    const blocks = blocksOf('ag-ui/run-error.sse');
    expect(blocks.map((b) => b.kind)).toEqual(['text', 'error', 'message']);
    expect(blocks[1]?.parsed).toEqual({ message: 'The model provider is overloaded.', code: 'provider_overloaded' });
    expect(blocks[2]?.parsed).toMatchObject({ status: 'failed' });
  });

  it('a recorded shared-state run: the state the tool call predicted, the result linked, the model and usage', () => {
    const { blocks } = decodeBytes(readExternalFixture('ag-ui/dojo/strands-typescript-shared-state-recipe.sse'));
    const call = blocks.find((b) => b.kind === 'tool_call');
    expect(call).toMatchObject({ name: 'generate_recipe', toolId: 'id-4' });
    expect((call?.parsed as { recipe: { title: string } }).recipe.title).toBe('Pasta Aglio e Olio');
    expect(blocks.find((b) => b.kind === 'tool_result')?.linkedBlock).toBe(call?.id);
    expect(blocks.filter((b) => b.kind === 'state').at(-1)?.parsed).toEqual(call?.parsed);
    expect(blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      model: 'gpt-5.4',
      usage: { input_tokens: 327, output_tokens: 162 },
    });
  });

  it('a recorded interrupt of the agent’s own tool: the run is interrupted, not waiting for the frontend; resumed, its result links', () => {
    const paused = decodeBytes(readExternalFixture('ag-ui/dojo/strands-interrupt-paused.sse')).blocks;
    expect(paused.some((b) => b.kind === 'awaiting_frontend_tools')).toBe(false);
    expect(paused.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      status: 'interrupted',
      stop_reason: 'interrupt',
    });
    const resumed = decodeBytes(readExternalFixture('ag-ui/dojo/strands-interrupt-resumed.sse')).blocks;
    const call = resumed.find((b) => b.kind === 'tool_call');
    expect(resumed.find((b) => b.kind === 'tool_result')).toMatchObject({ toolId: 'id-4', linkedBlock: call?.id });
    expect(resumed.filter((b) => b.kind === 'message').map((b) => (b.parsed as { status: string }).status)).toEqual([
      'interrupted',
      'completed',
    ]);
  });
});
