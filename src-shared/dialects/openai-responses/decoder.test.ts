import { describe, expect, it, test } from 'vitest';
import { listProviderFixtures } from '../../../src-main/testing/fixtures';
import {
  decodeEveryChunking,
  decodeProviderEvents,
  readProviderFixture,
  rulesOf,
} from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import {
  complete,
  completed,
  created,
  delta,
  ids,
  itemAdded,
  itemDone,
  numbered,
  partAdded,
  partDone,
  textDone,
} from './decoder-testing';

// Delta reads without JSON.parse, several responses in one capture and text for items never added
// are in decoder-responses.test.ts.

const fixtures = listProviderFixtures().filter((f) => f.startsWith('openai-responses/'));

const EXPECTED_RULES: Record<string, string[]> = {
  'openai-responses/cut.sse': [
    'provider.block-not-stopped',
    'provider.block-not-stopped',
    'provider.missing-terminal',
    'block.unterminated',
  ],
  'openai-responses/error.sse': ['provider.api-error'],
  'openai-responses/failed.sse': ['provider.response-failed'],
  'openai-responses/incomplete.sse': ['provider.response-incomplete', 'block.unterminated'],
  'openai-responses/unknown-types.sse': ['provider.unknown-event', 'provider.unknown-event'],
};

describe('OpenAI Responses fixtures', () => {
  test.each(fixtures)('%s: detected, decoded with exactly its findings, the same at every chunking', (name) => {
    const [first, ...rest] = decodeEveryChunking(readProviderFixture(name));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
    const result = decodeBytes(readProviderFixture(name));
    expect(result.formats).toEqual(['openai-responses']);
    expect(rulesOf(result)).toEqual(EXPECTED_RULES[name] ?? []);
  });

  it('text-annotations: four kinds of citation attach to the text', () => {
    const text = decodeBytes(readProviderFixture('openai-responses/text-annotations.sse')).blocks.find(
      (b) => b.kind === 'text',
    );
    expect(text?.content).toBe('Paris is the capital of France. See the atlas.');
    expect(text?.citations.map((c) => c.citationType)).toEqual([
      'url_citation',
      'file_citation',
      'container_file_citation',
      'file_path',
    ]);
    expect(text?.citations[0]?.fields).toMatchObject({
      url: 'https://atlas.example/france',
      start_index: 0,
      end_index: 31,
    });
  });

  it('reasoning-function: a summary, reasoning text and a function call with parsed arguments', () => {
    const { blocks } = decodeBytes(readProviderFixture('openai-responses/reasoning-function.sse'));
    expect(blocks.map((b) => b.kind)).toEqual([
      'reasoning_summary',
      'thinking',
      'tool_call',
      'message',
      'awaiting_frontend_tools',
    ]);
    expect(blocks[2]).toMatchObject({
      toolId: 'call_demo_weather',
      name: 'get_weather',
      parsed: { city: 'Paris', unit: 'celsius' },
    });
    expect(blocks[3]?.parsed).toMatchObject({
      status: 'completed',
      usage: { output_tokens: 64, output_tokens_details: { reasoning_tokens: 40 } },
    });
  });

  it('builtin-tools: each built-in call has its status phases and a linked result; the generated image attaches', () => {
    const { blocks, envelopes } = decodeBytes(readProviderFixture('openai-responses/builtin-tools.sse'));
    const call = (id: string) => blocks.find((b) => b.kind === 'server_tool_call' && b.toolId === id);
    expect(call('ws_demo')?.parsed).toMatchObject({
      phases: ['in_progress', 'searching', 'completed'],
      action: { query: 'paris weather' },
    });
    expect(call('ci_demo')?.parsed).toMatchObject({
      code: 'print(6 * 7)',
      phases: ['in_progress', 'interpreting', 'completed'],
    });
    for (const id of ['ws_demo', 'fs_demo', 'ci_demo', 'mcpl_demo', 'mcp_demo'])
      expect(blocks.find((b) => b.id === call(id)?.linkedBlock)?.toolId, id).toBe(id);
    const image = blocks.find((b) => b.kind === 'tool_result' && b.toolId === 'ig_demo');
    expect(image?.images.map((i) => i.mediaType)).toEqual(['image/png']);
    expect(blocks.find((b) => b.kind === 'custom_tool_call')?.content).toBe('SELECT 1;');
    const statuses = envelopes
      .filter((e) => e.unified?.family === 'stream.tool_call_status' && e.unified.tool?.builtin === 'web_search')
      .map((e) => e.unified?.phase);
    expect(statuses).toEqual(['in_progress', 'searching', 'completed']);
  });

  it('refusal: streams as a refusal block', () => {
    const { blocks } = decodeBytes(readProviderFixture('openai-responses/refusal.sse'));
    expect(blocks.map((b) => [b.kind, b.content])).toEqual([
      ['refusal', 'I can’t help with that.'],
      ['message', expect.any(String) as string],
    ]);
  });

  it('every delta carries its unified event with StreamIDs', () => {
    const { envelopes } = decodeProviderEvents(complete);
    expect(envelopes.find((e) => e.type === 'text' && e.delta === 'Hello')?.unified).toEqual({
      family: 'stream.content_block_delta',
      ids: { response_id: 'resp_1', item_id: 'msg_1', output_index: 0, content_index: 0 },
      kind: 'text_delta',
      channel: 'output_text',
    });
    expect(envelopes[0]?.unified?.family).toBe('stream.message_start');
    expect(envelopes.at(-2)?.unified).toMatchObject({
      family: 'stream.message_stop',
      phase: 'completed',
      usage: { output_tokens: 2 },
    });
  });
});

describe('OpenAI Responses diagnostics', () => {
  it("'provider.sequence-gap': a skipped or repeated sequence_number; must not in order", () => {
    const gap = complete.filter((_, i) => i !== 3);
    expect(rulesOf(decodeProviderEvents(gap))).toContain('provider.sequence-gap');
    const swapped = [...complete];
    [swapped[3], swapped[4]] = [swapped[4] ?? '', swapped[3] ?? ''];
    expect(decodeProviderEvents(swapped).diagnostics.find((d) => d.rule === 'provider.sequence-gap')?.message).toMatch(
      /jumps|goes back/,
    );
    expect(rulesOf(decodeProviderEvents(complete))).toEqual([]);
  });

  it("'provider.response-failed' and 'provider.response-incomplete' name their reasons", () => {
    const failed = decodeProviderEvents(
      numbered([
        created,
        [
          'response.failed',
          { response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'boom' } } },
        ],
      ]),
    );
    expect(failed.diagnostics.map((d) => [d.rule, d.severity, d.message])).toEqual([
      ['provider.response-failed', 'error', 'The response failed (server_error): boom'],
    ]);
    const incomplete = decodeProviderEvents(
      numbered([
        created,
        [
          'response.incomplete',
          { response: { id: 'resp_1', status: 'incomplete', incomplete_details: { reason: 'content_filter' } } },
        ],
      ]),
    );
    expect(incomplete.diagnostics.map((d) => [d.rule, d.severity])).toEqual([
      ['provider.response-incomplete', 'warning'],
    ]);
    expect(incomplete.diagnostics[0]?.message).toContain('content_filter');
    expect(rulesOf(decodeProviderEvents(complete))).not.toContain('provider.response-failed');
  });

  it("'provider.api-error': a top-level error event is an error finding", () => {
    const result = decodeProviderEvents(
      numbered([['error', { code: 'rate_limit_exceeded', message: 'slow down', param: null }]]),
    );
    expect(result.formats).toEqual(['openai-responses']);
    expect(result.diagnostics.map((d) => [d.rule, d.severity])).toEqual([['provider.api-error', 'error']]);
  });

  it("'provider.api-error': the error recorded streams nest in `error` gives its code and message, with or without an event: field", () => {
    const error = JSON.stringify({
      type: 'error',
      error: { type: 'server_error', code: 'server_error', message: 'boom', param: null },
      sequence_number: 0,
    });
    for (const frame of [`event: error\ndata: ${error}\n\n`, `data: ${error}\n\n`]) {
      const result = decodeProviderEvents([frame]);
      expect(result.formats).toEqual(['openai-responses']);
      expect(result.diagnostics.map((d) => d.message)).toEqual([
        'The API sent an error (server_error) as the first event: boom',
      ]);
    }
    // Must not claim another API's error: Anthropic's has no sequence_number.
    const anthropic = 'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    expect(decodeProviderEvents([anthropic]).formats).toEqual(['anthropic-messages']);
  });

  it('an error event, then its response.failed (as the API sends them): the response is summed up once, as failed', () => {
    const error = { code: 'server_error', message: 'boom' };
    const result = decodeProviderEvents(
      numbered([
        created,
        ['error', { error }],
        ['response.failed', { response: { id: 'resp_1', status: 'failed', error } }],
      ]),
    );
    expect(rulesOf(result)).toEqual(['provider.api-error', 'provider.response-failed']);
    expect(result.blocks.filter((b) => b.kind === 'message').map((b) => b.parsed)).toEqual([
      { id: 'resp_1', model: 'gpt-test', status: 'failed', error },
    ]);
  });

  it("'provider.missing-terminal': no completed, failed or incomplete; must not with one", () => {
    expect(rulesOf(decodeProviderEvents(complete.slice(0, -1)))).toEqual(['provider.missing-terminal']);
  });

  it("'provider.block-not-started' and 'provider.delta-after-stop': deltas for parts never added, or after their done", () => {
    expect(rulesOf(decodeProviderEvents(numbered([created, itemAdded, delta('x'), completed])))).toContain(
      'provider.block-not-started',
    );
    expect(
      rulesOf(
        decodeProviderEvents(
          numbered([
            created,
            itemAdded,
            partAdded,
            delta('a'),
            textDone('a'),
            delta('late'),
            partDone,
            itemDone,
            completed,
          ]),
        ),
      ),
    ).toEqual(['provider.delta-after-stop']);
  });

  it("'provider.block-started-twice': an output item added again while open", () => {
    expect(rulesOf(decodeProviderEvents(numbered([created, itemAdded, itemAdded, itemDone, completed])))).toEqual([
      'provider.block-started-twice',
    ]);
  });

  it("'provider.tool-args-invalid': function arguments that do not parse once done; must not when they do", () => {
    const call = (args: string) =>
      numbered([
        created,
        [
          'response.output_item.added',
          { output_index: 0, item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '' } },
        ],
        ['response.function_call_arguments.delta', { item_id: 'fc_1', output_index: 0, delta: args }],
        ['response.function_call_arguments.done', { item_id: 'fc_1', output_index: 0, arguments: args }],
        [
          'response.output_item.done',
          {
            output_index: 0,
            item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: args },
          },
        ],
        completed,
      ]);
    expect(rulesOf(decodeProviderEvents(call('{"a":')))).toContain('provider.tool-args-invalid');
    expect(rulesOf(decodeProviderEvents(call('{"a":1}')))).not.toContain('provider.tool-args-invalid');
  });

  it("'provider.annotation-out-of-range': offsets past the end of the text; must not inside it", () => {
    const annotated = (end: number) =>
      numbered([
        created,
        itemAdded,
        partAdded,
        delta('Hello'),
        [
          'response.output_text.annotation.added',
          {
            ...ids,
            annotation_index: 0,
            annotation: { type: 'url_citation', url: 'https://a.example', title: 'A', start_index: 0, end_index: end },
          },
        ],
        textDone('Hello'),
        partDone,
        itemDone,
        completed,
      ]);
    expect(rulesOf(decodeProviderEvents(annotated(9)))).toEqual(['provider.annotation-out-of-range']);
    expect(rulesOf(decodeProviderEvents(annotated(5)))).toEqual([]);
  });

  it("'provider.unknown-event': a new event type is kept as a provider event", () => {
    const result = decodeProviderEvents(numbered([created, ['response.hologram.delta', { delta: 'x' }], completed]));
    expect(rulesOf(result)).toEqual(['provider.unknown-event']);
    expect(result.envelopes.some((e) => e.type === 'response.hologram.delta' && e.control === 'provider-event')).toBe(
      true,
    );
  });
});
