import { describe, expect, it } from 'vitest';
import { readExternalFixture } from '../../../src-main/testing/fixtures';
import { decodeEveryChunking, decodeProviderEvents, rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import {
  complete,
  completed,
  created,
  delta,
  ids,
  itemAdded,
  itemDone,
  message,
  numbered,
  partAdded,
  partDone,
  textDone,
} from './decoder-testing';

// Text deltas read without JSON.parse, several responses in one capture, and text for an item or part
// never added; the fixtures and each rule's trigger are in decoder.test.ts.

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

describe('an output item given whole by its done event alone', () => {
  const whole = {
    id: 'msg_1',
    type: 'message',
    content: [
      {
        type: 'output_text',
        text: 'See docs.',
        annotations: [{ type: 'url_citation', url: 'https://d.example', start_index: 4, end_index: 8 }],
      },
      { type: 'refusal', refusal: 'Not that.' },
    ],
  };
  const doneAlone = (fields: Record<string, unknown>) =>
    decodeProviderEvents(numbered([created, ['response.output_item.done', fields], completed]));
  const contentOf = (result: ReturnType<typeof decodeProviderEvents>) =>
    result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content, b.status]);

  it("a message item never added makes its parts' blocks, with or without an output_index, its citations kept", () => {
    for (const fields of [{ output_index: 0, item: whole }, { item: whole }]) {
      const result = doneAlone(fields);
      expect(rulesOf(result)).toEqual(['provider.block-not-started']);
      expect(contentOf(result)).toEqual([
        ['text', 'See docs.', 'complete'],
        ['refusal', 'Not that.', 'complete'],
      ]);
      expect(result.blocks[0]?.citations.map((c) => [c.citationType, c.citedText])).toEqual([
        ['url_citation', 'https://d.example'],
      ]);
    }
    const reasoning = { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thought.' }] };
    expect(contentOf(doneAlone({ output_index: 0, item: reasoning }))).toEqual([
      ['reasoning_summary', 'Thought.', 'complete'],
    ]);
  });

  it('must not: text its part events streamed (with or without part indexes) is not made again from the item', () => {
    const withContent: [string, Record<string, unknown>] = [
      'response.output_item.done',
      { output_index: 0, item: { id: 'msg_1', type: 'message', content: [{ type: 'output_text', text: 'Hi' }] } },
    ];
    const streamed = decodeProviderEvents(numbered([created, ...message('Hi').slice(0, -1), withContent, completed]));
    expect(rulesOf(streamed)).toEqual([]);
    expect(contentOf(streamed)).toEqual([['text', 'Hi', 'complete']]);
    const unindexed = decodeProviderEvents([
      'data: {"type":"response.output_text.delta","item_id":"msg_1","delta":"Hi"}\n\n',
      'data: {"type":"response.output_text.done","item_id":"msg_1","text":"Hi"}\n\n',
      `data: ${JSON.stringify({ type: 'response.output_item.done', ...withContent[1] })}\n\n`,
    ]);
    expect(contentOf(unindexed).map(([kind, content]) => [kind, content])).toEqual([['text', 'Hi']]);
  });
});

describe('items response.completed finds open', () => {
  const list = { id: 'mcpl_1', type: 'mcp_list_tools', server_label: 'docs', tools: [] };
  const call = { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'lookup', arguments: '' };
  const listed = { ...list, tools: [{ name: 'search', input_schema: { type: 'object' } }] };
  const called = { ...call, status: 'completed', arguments: '{"q":"x"}' };
  const events = (output: unknown[]) =>
    numbered([
      created,
      ['response.output_item.added', { output_index: 0, item: list }],
      ['response.mcp_list_tools.completed', { output_index: 0, item_id: 'mcpl_1' }],
      ['response.output_item.added', { output_index: 1, item: call }],
      ['response.completed', { response: { ...(completed[1]['response'] as object), output } }],
    ]);

  it('are reported as not done, and make their blocks from the items its output gives (not lost)', () => {
    const result = decodeProviderEvents(events([listed, called]));
    expect(rulesOf(result)).toEqual(['provider.block-not-stopped', 'provider.block-not-stopped']);
    expect(result.diagnostics[0]?.message).toBe(
      "The mcp_list_tools output item 0 added in event 1 got no done event before response.completed (event 4); decoded from the item the response's output gives.",
    );
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['server_tool_call', expect.stringContaining('"server_label":"docs"') as unknown],
      ['server_tool_result', '[{"name":"search","input_schema":{"type":"object"}}]'],
      ['tool_call', '{"q":"x"}'],
      ['message', expect.any(String) as unknown],
      ['awaiting_frontend_tools', expect.any(String) as unknown],
    ]);
    expect(result.blocks.find((b) => b.kind === 'awaiting_frontend_tools')?.pendingTools).toEqual([
      { toolUseId: 'call_1', name: 'lookup', input: { q: 'x' } },
    ]);
  });

  it('an output item of another id or type at that index is not taken for it', () => {
    const result = decodeProviderEvents(
      events([
        { ...listed, id: 'mcpl_2' },
        { ...called, type: 'message' },
      ]),
    );
    expect(rulesOf(result)).toEqual(['provider.block-not-stopped', 'provider.block-not-stopped']);
    expect(result.diagnostics[0]?.message).toBe(
      'The mcp_list_tools output item 0 added in event 1 got no done event before response.completed (event 4).',
    );
    expect(result.blocks.map((b) => b.kind)).toEqual(['message']);
  });
});

describe('a reasoning item at its done event', () => {
  const reasoning = (item: Record<string, unknown>) =>
    decodeProviderEvents(
      numbered([
        created,
        ['response.output_item.added', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', summary: [] } }],
        ['response.output_item.done', { output_index: 0, item: { id: 'rs_1', type: 'reasoning', ...item } }],
        completed,
      ]),
    );
  const SUMMARY = [{ type: 'summary_text', text: 'Thinking' }];

  it('with only its encrypted content: one redacted_thinking block, the item whole', () => {
    const result = reasoning({ summary: [], encrypted_content: 'gAAAAABenc==' });
    expect(result.diagnostics).toEqual([]);
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['redacted_thinking', '{"id":"rs_1","type":"reasoning","summary":[],"encrypted_content":"gAAAAABenc=="}'],
      ['message', expect.any(String) as unknown],
    ]);
  });

  it.each([
    [
      'a summary beside the encrypted content (its parts made their block)',
      { summary: SUMMARY, encrypted_content: 'gAAAAABenc==' },
    ],
    ['no encrypted content (not asked for with include)', { summary: [], encrypted_content: null }],
  ])('must not: %s makes a redacted block', (_name, item) => {
    // A summary no part event streamed is made from the item (a reasoning_summary block), never a redacted one.
    expect(reasoning(item).blocks.map((b) => b.kind)).toEqual([
      ...(item.summary.length > 0 ? ['reasoning_summary'] : []),
      'message',
    ]);
  });
});
