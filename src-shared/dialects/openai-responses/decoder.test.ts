import { describe, expect, it, test } from 'vitest';
import { listProviderFixtures, readExternalFixture } from '../../../src-main/testing/fixtures';
import {
  decodeEveryChunking,
  decodeProviderEvents,
  readProviderFixture,
  rulesOf,
} from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';

/** Events numbered in order, as the API sends them. */
function numbered(events: [string, Record<string, unknown>][]): string[] {
  return events.map(
    ([type, fields], i) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields, sequence_number: i })}\n\n`,
  );
}

const ids = { item_id: 'msg_1', output_index: 0, content_index: 0 };
const created: [string, Record<string, unknown>] = [
  'response.created',
  { response: { id: 'resp_1', status: 'in_progress', model: 'gpt-test' } },
];
const completed: [string, Record<string, unknown>] = [
  'response.completed',
  { response: { id: 'resp_1', status: 'completed', model: 'gpt-test', usage: { input_tokens: 5, output_tokens: 2 } } },
];
const itemAdded: [string, Record<string, unknown>] = [
  'response.output_item.added',
  { output_index: 0, item: { id: 'msg_1', type: 'message', content: [] } },
];
const partAdded: [string, Record<string, unknown>] = [
  'response.content_part.added',
  { ...ids, part: { type: 'output_text', text: '' } },
];
const delta = (text: string): [string, Record<string, unknown>] => [
  'response.output_text.delta',
  { ...ids, delta: text },
];
const textDone = (text: string): [string, Record<string, unknown>] => ['response.output_text.done', { ...ids, text }];
const partDone: [string, Record<string, unknown>] = [
  'response.content_part.done',
  { ...ids, part: { type: 'output_text' } },
];
const itemDone: [string, Record<string, unknown>] = [
  'response.output_item.done',
  { output_index: 0, item: { id: 'msg_1', type: 'message', status: 'completed' } },
];
const message = (text: string): [string, Record<string, unknown>][] => [
  itemAdded,
  partAdded,
  delta(text),
  textDone(text),
  partDone,
  itemDone,
];
const complete = numbered([created, ...message('Hello'), completed]);

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
  'openai-responses/reasoning-function.sse': ['tool.call-without-result'],
  'openai-responses/builtin-tools.sse': ['tool.call-without-result', 'tool.call-without-result'],
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
    expect(blocks.map((b) => b.kind)).toEqual(['reasoning_summary', 'thinking', 'tool_call', 'message']);
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

describe('text deltas read without JSON.parse once their prefix is known', () => {
  /** The events as the API writes them, or with `delta` first, which is never read without JSON.parse. */
  const frames = (events: [string, Record<string, unknown>, number?][], deltaFirst: boolean): string[] =>
    events.map(([type, fields, sequence], i) => {
      const { delta: text, ...rest } = fields;
      const ordered = deltaFirst && text !== undefined ? { delta: text, type, ...rest } : { type, ...fields };
      return `event: ${type}\ndata: ${JSON.stringify({ ...ordered, sequence_number: sequence ?? i })}\n\n`;
    });
  const otherIds = { item_id: 'msg_2', output_index: 1, content_index: 0 };
  const summaryIds = { item_id: 'rs_1', output_index: 2, summary_index: 0 };
  const events: [string, Record<string, unknown>, number?][] = [
    created,
    itemAdded,
    partAdded,
    ...['Hel', 'lo', ' "you"', '\n', ' 数据 😀', ''].map(delta),
    // A gap in the sequence numbers is reported whichever way the delta is read.
    ['response.output_text.delta', { ...ids, delta: 'gap' }, 40],
    ['response.output_item.added', { output_index: 1, item: { id: 'msg_2', type: 'message', content: [] } }],
    ['response.content_part.added', { ...otherIds, part: { type: 'refusal', refusal: '' } }],
    ['response.refusal.delta', { ...otherIds, delta: 'No.' }],
    ['response.refusal.delta', { ...otherIds, delta: ' Sorry' }],
    delta(' again'),
    ['response.output_item.added', { output_index: 2, item: { id: 'rs_1', type: 'reasoning', summary: [] } }],
    ['response.reasoning_summary_part.added', { ...summaryIds, part: { type: 'summary_text', text: '' } }],
    ['response.reasoning_summary_text.delta', { ...summaryIds, delta: 'Think' }],
    ['response.reasoning_summary_text.delta', { ...summaryIds, delta: 'ing' }],
    textDone('Hello'),
    // Late: its part is done, so it is a provider event with a finding, not text.
    delta(' late'),
    partDone,
    delta(' later'),
    itemDone,
    // A new response: the refusal part still open goes on in it, and the same ids again belong to a new part.
    ['response.refusal.delta', { ...otherIds, delta: ' still' }],
    ['response.created', { response: { id: 'resp_2', status: 'in_progress', model: 'gpt-test' } }],
    ['response.refusal.delta', { ...otherIds, delta: ' no' }],
    partAdded,
    delta('Second'),
    delta(' response'),
    completed,
  ];

  it('decode to exactly what JSON.parse of every event gives (envelopes, blocks, findings)', () => {
    const read = decodeProviderEvents(frames(events, false));
    const parsed = decodeProviderEvents(frames(events, true));
    const shape = (r: typeof read): unknown => ({
      envelopes: r.envelopes.map(({ byteStart: _s, byteEnd: _e, ...e }) => e),
      blocks: r.blocks.map(({ byteStart: _s, byteEnd: _e, ...block }) => block),
      diagnostics: r.diagnostics.map((d) => [d.rule, d.message]),
    });
    expect(shape(read)).toEqual(shape(parsed));
    expect(rulesOf(read)).toEqual(expect.arrayContaining(['provider.sequence-gap', 'provider.delta-after-stop']));
    expect(read.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual([
      'Hello "you"\n 数据 😀gap again',
      'Second response',
    ]);
    expect(read.blocks.find((b) => b.kind === 'reasoning_summary')?.content).toBe('Thinking');
  });
});

describe('several responses in one capture', () => {
  const capture = readExternalFixture('vercel-ai/openai-two-responses.data-only.sse');

  it("a real capture of two responses (an SDK suite's tool loop): two messages, done, one info finding and no sequence gap", () => {
    const result = decodeBytes(capture);
    expect(result.formats).toEqual(['openai-responses']);
    expect(result.diagnostics.map((d) => [d.rule, d.severity])).toEqual([
      ['provider.next-message', 'info'],
      ['tool.call-without-result', 'info'],
    ]);
    expect(result.diagnostics[0]?.message).toMatch(
      /^response\.created in event 9 begins response 2 \(resp_0039ff4ed0aeca1e016ac948b5704887d29d49ae212623313e\) after response 1 ended in event 8/,
    );
    expect(
      result.blocks.filter((b) => b.kind === 'message').map((b) => (b.parsed as { id: string; status: string }).status),
    ).toEqual(['completed', 'completed']);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual(['blue-42']);
    expect(endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind).toBe(
      'done',
    );
    const [first, ...rest] = decodeEveryChunking(capture);
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
  });

  it('the second response cut short: the stream is truncated, though the first one completed', () => {
    const text = new TextDecoder().decode(capture);
    const cut = decodeBytes(
      new TextEncoder().encode(text.slice(0, text.lastIndexOf('data: {"type":"response.completed"'))),
    );
    expect(rulesOf(cut)).toContain('provider.missing-terminal');
    expect(endStatusOf({ stream: cut.ends[0]?.stream ?? null, ...blockEndFacts(cut.blocks, 0) }).kind).toBe(
      'truncated',
    );
  });

  it('a first response that failed and a second that completed: the stream ends done, the failure stays a finding', () => {
    const failed: [string, Record<string, unknown>] = [
      'response.failed',
      { response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'boom' } } },
    ];
    const retried = numbered([created, ...message('Hi'), failed]).concat(
      numbered([
        ['response.created', { response: { id: 'resp_2', status: 'in_progress' } }],
        ...message('Again'),
        ['response.completed', { response: { id: 'resp_2', status: 'completed' } }],
      ]),
    );
    const result = decodeProviderEvents(retried);
    expect(rulesOf(result)).toEqual(['provider.response-failed', 'provider.next-message']);
    expect(endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind).toBe(
      'done',
    );
    // The other way round, the stream ends as its last response: by error.
    const failedLast = numbered([created, ...message('Hi'), completed]).concat(
      numbered([['response.created', { response: { id: 'resp_2', status: 'in_progress' } }], ...message('x'), failed]),
    );
    const last = decodeProviderEvents(failedLast);
    expect(endStatusOf({ stream: last.ends[0]?.stream ?? null, ...blockEndFacts(last.blocks, 0) }).kind).toBe('error');
  });

  it('a response that starts while the previous one is open cut that one short (provider.missing-terminal), and both are kept', () => {
    const second = numbered([created, ...message('Hi')]).concat(
      numbered([
        ['response.created', { response: { id: 'resp_2', status: 'in_progress' } }],
        ...message('Again'),
        ['response.completed', { response: { id: 'resp_2', status: 'completed' } }],
      ]),
    );
    const result = decodeProviderEvents(second);
    expect(rulesOf(result)).toEqual(['provider.missing-terminal']);
    expect(result.diagnostics[0]?.message).toContain(
      'response 1 (resp_1) got no response.completed, .failed or .incomplete before response.created in event 7 began response 2 (resp_2)',
    );
    expect(
      result.blocks.filter((b) => b.kind === 'message').map((b) => (b.parsed as { status: string }).status),
    ).toEqual(['cut', 'completed']);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual(['Hi', 'Again']);
  });

  it('a real gap inside one response is one finding that says how many events are missing', () => {
    const gap = complete.filter((_, i) => i < 2 || i > 4);
    const found = decodeProviderEvents(gap).diagnostics.filter((d) => d.rule === 'provider.sequence-gap');
    expect(found.map((d) => d.message)).toEqual([expect.stringContaining('jumps from 1 to 5: 3 event(s) missing')]);
  });

  it('a restart of sequence_number without a new response stays one finding, not one per later event', () => {
    const restarted = [...complete.slice(0, 4), ...numbered([...message('x'), completed]).slice(0)];
    const found = decodeProviderEvents(restarted).diagnostics.filter((d) => d.rule === 'provider.sequence-gap');
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('goes back from 3 to 0');
  });
});

describe('text for an item or part that was never added', () => {
  it('a hand-trimmed real capture (output_item.added and content_part.added cut out): flagged, and the text is still a block', () => {
    const lines = new TextDecoder()
      .decode(readExternalFixture('vercel-ai/openai-two-responses.data-only.sse'))
      .split('\n\n');
    const second = lines.findIndex((l) => l.includes('"resp_0039ff4ed0aeca1e016ac948b5704887d29d49ae212623313e"'));
    const trimmed = lines
      .filter((l, i) => i < second || !/"type":"response\.(output_item|content_part)\.added"/.test(l))
      .join('\n\n');
    const result = decodeBytes(new TextEncoder().encode(trimmed));
    const found = result.diagnostics.filter((d) => d.rule === 'provider.block-not-started').map((d) => d.message);
    expect(found[0]).toBe(
      'response.output_text.delta in event 11 is for part 0:0, which was never added; its text is kept in a text block of its own.',
    );
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => [b.content, b.status])).toEqual([
      ['blue-42', 'complete'],
    ]);
  });

  it('deltas without any part indexes (a proxy that strips them) are kept in one block of their item', () => {
    const result = decodeProviderEvents([
      'data: {"type":"response.output_text.delta","delta":"1"}\n\n',
      'data: {"type":"response.output_text.delta","delta":"2"}\n\n',
      'data: {"type":"response.output_text.done"}\n\n',
    ]);
    expect(result.formats).toEqual(['openai-responses']);
    expect(rulesOf(result)).toEqual([
      'provider.block-not-started',
      'provider.block-not-stopped',
      'provider.missing-terminal',
    ]);
    expect(result.diagnostics[0]?.message).toBe(
      'response.output_text.delta in event 0 has no part indexes; its text is kept in a text block of its own.',
    );
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => [b.content, b.status])).toEqual([
      ['12', 'complete'],
    ]);
  });

  it('a done event alone for a part never added keeps its text; must not report a part that was added', () => {
    const result = decodeProviderEvents(
      numbered([created, itemAdded, textDone('Whole'), partDone, itemDone, completed]),
    );
    expect(rulesOf(result)).toEqual(['provider.block-not-started']);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual(['Whole']);
    expect(rulesOf(decodeProviderEvents(complete))).toEqual([]);
  });
});
