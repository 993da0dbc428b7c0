import { describe, expect, it, test } from 'vitest';
import {
  listProviderFixtures,
  listSseFixtures,
  readExternalFixture,
  readFixture,
} from '../../../src-main/testing/fixtures';
import {
  decodeEveryChunking,
  decodeProviderEvents,
  providerEvent as ev,
  readProviderFixture,
  rulesOf,
} from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import { decodeBytes, decodeLegs } from '../../pipeline/session-decoder';

const start = ev('message_start', {
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    content: [],
    usage: { input_tokens: 10, output_tokens: 1 },
  },
});
const textStart = (index: number): string =>
  ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
const textDelta = (index: number, text: string): string =>
  ev('content_block_delta', { index, delta: { type: 'text_delta', text } });
const stop = (index: number): string => ev('content_block_stop', { index });
const end = [
  ev('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 5 } }),
  ev('message_stop'),
];
const complete = [start, textStart(0), textDelta(0, 'Hi'), stop(0), ...end];

const fixtures = listProviderFixtures().filter((f) => f.startsWith('anthropic-messages/'));

/** The findings each fixture must raise (and no others). */
const EXPECTED_RULES: Record<string, string[]> = {
  'anthropic-messages/cut.sse': ['provider.block-not-stopped', 'provider.missing-terminal', 'block.unterminated'],
  'anthropic-messages/error-first.sse': ['provider.api-error'],
  'anthropic-messages/error-midstream.sse': ['provider.api-error', 'block.unterminated'],
  'anthropic-messages/max-tokens.sse': ['provider.response-incomplete'],
  'anthropic-messages/refusal.sse': ['provider.response-incomplete'],
  // A client tool: the message waits for its result.
  'anthropic-messages/unknown-types.sse': [
    'provider.unknown-event',
    'provider.unknown-event',
    'provider.unknown-event',
  ],
};

describe('Anthropic Messages fixtures', () => {
  test.each(fixtures)('%s: detected, decoded with exactly its findings, the same at every chunking', (name) => {
    const [first, ...rest] = decodeEveryChunking(readProviderFixture(name));
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
    const result = decodeBytes(readProviderFixture(name));
    expect(result.formats).toEqual(['anthropic-messages']);
    expect(rulesOf(result)).toEqual(EXPECTED_RULES[name] ?? []);
    expect(rulesOf(result)).not.toContain('stream.missing-done');
  });

  it('text-citations: thinking, text with its citation, and the message summed up', () => {
    const { blocks } = decodeBytes(readProviderFixture('anthropic-messages/text-citations.sse'));
    expect(blocks.map((b) => b.kind)).toEqual(['thinking', 'text', 'message']);
    expect(blocks[1]?.content).toBe('The capital of France is Paris. It lies on the Seine.');
    expect(blocks[1]?.citations.map((c) => [c.citationType, c.citedText, c.fields['document_title']])).toEqual([
      ['char_location', 'Paris is the capital of France.', 'Atlas'],
    ]);
    expect(blocks[2]?.parsed).toMatchObject({
      id: 'msg_demo_text',
      model: 'claude-sonnet-4-5',
      status: 'completed',
      stop_reason: 'end_turn',
      usage: { input_tokens: 412, output_tokens: 38 },
    });
  });

  it('server-tools: every result block links to its call; redacted thinking and a pause_turn are kept', () => {
    const { blocks } = decodeBytes(readProviderFixture('anthropic-messages/server-tools.sse'));
    const results = blocks.filter((b) => b.kind === 'server_tool_result');
    expect(results.map((b) => b.name)).toEqual([
      'web_search_tool_result',
      'web_fetch_tool_result',
      'bash_code_execution_tool_result',
      'text_editor_code_execution_tool_result',
      'code_execution_tool_result',
      'tool_search_tool_result',
      'web_search_tool_result',
      'mcp_tool_result',
    ]);
    for (const result of results) expect(blocks.find((b) => b.id === result.linkedBlock)?.toolId).toBe(result.toolId);
    expect(blocks[0]?.kind).toBe('redacted_thinking');
    const { envelopes } = decodeBytes(readProviderFixture('anthropic-messages/server-tools.sse'));
    const searches = envelopes
      .filter((e) => e.unified?.family === 'stream.tool_call_result' && e.unified.kind === 'web_search_tool_result')
      .map((e) => e.unified);
    expect(searches.map((u) => [u?.phase, u?.search_results])).toEqual([
      ['completed', [{ url: 'https://weather.example/paris', title: 'Paris weather' }]],
      ['failed', undefined],
    ]);
    expect(blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ stop_reason: 'pause_turn' });
  });

  it('server-tools: a result row is the frame that carried the result, and the stop frame after it is a row of its own', () => {
    const { envelopes, frames } = decodeBytes(readProviderFixture('anthropic-messages/server-tools.sse'));
    const results = envelopes.filter((e) => e.type === 'server_tool_result');
    expect(results).toHaveLength(8);
    for (const result of results) {
      const data = frames[0]?.[result.frame]?.data ?? '';
      expect(data).toContain('"content_block_start"');
      expect(data).toContain(String(result.extras['id']));
      const next = envelopes[result.seq + 1];
      expect([next?.type, next?.frame]).toEqual(['content_block_stop', result.frame + 1]);
    }
  });

  it('tool-use: the streamed input becomes one tool call with parsed arguments', () => {
    const call = decodeBytes(readProviderFixture('anthropic-messages/tool-use.sse')).blocks.find(
      (b) => b.kind === 'tool_call',
    );
    expect([call?.toolId, call?.name, call?.parsed]).toEqual([
      'toolu_demo_weather',
      'get_weather',
      { location: 'San Francisco, CA', unit: 'celsius' },
    ]);
  });

  test.each([
    ['refusal', 'refusal', 'incomplete', 'incomplete'],
    ['max-tokens', 'max_tokens', 'incomplete', 'incomplete'],
    ['stop-sequence', 'stop_sequence', 'completed', 'done'],
  ])('%s: the message summary names stop reason %s, status %s; the stream %s', (name, reason, status, end) => {
    const result = decodeBytes(readProviderFixture(`anthropic-messages/${name}.sse`));
    const message = result.blocks.find((b) => b.kind === 'message');
    expect(message?.parsed).toMatchObject({ stop_reason: reason, status });
    if (status === 'incomplete') expect(message?.parsed).toMatchObject({ incomplete_details: { reason } });
    // As OpenAI Chat's length and content_filter: output cut short is never "done", nor an error.
    expect(endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label).toBe(end);
  });

  it('every envelope of a content event carries its unified event with ids', () => {
    const { envelopes } = decodeBytes(readProviderFixture('anthropic-messages/text-citations.sse'));
    const families = envelopes.map((e) => e.unified?.family);
    expect(families.slice(0, 3)).toEqual(['stream.message_start', 'stream.ping', 'stream.content_block_start']);
    const textDelta = envelopes.find((e) => e.type === 'text' && e.delta !== '');
    expect(textDelta?.unified).toEqual({
      family: 'stream.content_block_delta',
      ids: { message_id: 'msg_demo_text', block_id: '1', content_index: 1 },
      kind: 'text_delta',
      channel: 'output_text',
    });
    expect(envelopes.find((e) => e.type === 'citation')?.unified?.kind).toBe('citations_delta');
    expect(envelopes.find((e) => e.type === 'thinking' && e.delta !== '')?.unified?.channel).toBe('reasoning');
  });

  it('ends at message_stop: nothing is missing without [DONE], and the summary has TTFT and tokens per second', () => {
    // message_start at 1000 ms, the first text delta at 1250 ms, message_stop at 1750 ms; 5 output tokens.
    const times = [1000, 1100, 1250, 1300, 1700, 1750];
    const timed = decodeLegs([
      complete.map((event, i) => ({ bytes: new TextEncoder().encode(event), receivedAt: times[i] ?? 0 })),
    ]);
    expect(rulesOf(timed)).toEqual([]);
    expect(timed.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({
      time_to_first_token_ms: 250,
      duration_ms: 750,
      output_tokens_per_second: 10,
    });
  });
});

describe('detection: the API names its events, the agent raw format does not', () => {
  it('a Messages capture is anthropic-messages; the upstream raw fixtures stay raw', () => {
    expect(decodeProviderEvents(complete).formats).toEqual(['anthropic-messages']);
    for (const name of listSseFixtures().filter((f) => f.endsWith('.raw.sse') && !f.includes('resume'))) {
      expect(decodeBytes(readFixture(name)).formats, name).toEqual(['raw']);
    }
  });

  it('the same events without event: lines are still the Messages API, done at message_stop (no [DONE] wanted)', () => {
    const bare = complete.map((e) => e.replace(/^event: [^\n]*\n/, ''));
    const result = decodeProviderEvents(bare);
    expect(result.formats).toEqual(['anthropic-messages']);
    expect(rulesOf(result)).toEqual([]);
    expect(result.ends[0]?.stream.terminal?.event).toBe('message_stop');
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([
      ['text', 'Hi'],
      ['message', expect.any(String)],
    ]);
  });

  it("a real data-only capture (an SDK test suite's recorded stream): anthropic-messages, done, its text whole, at every chunking", () => {
    const bytes = readExternalFixture('vercel-ai/anthropic-text.data-only.sse');
    const result = decodeBytes(bytes);
    expect(result.formats).toEqual(['anthropic-messages']);
    expect(rulesOf(result)).toEqual([]);
    expect(endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind).toBe(
      'done',
    );
    expect(result.blocks[0]?.content).toBe(
      "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    );
    const [first, ...rest] = decodeEveryChunking(bytes);
    expect(rest.filter((r) => JSON.stringify(r.shape) !== JSON.stringify(first?.shape)).map((r) => r.name)).toEqual([]);
  });
});

describe('Anthropic Messages diagnostics', () => {
  it("'provider.api-error': an error event, flagged as the first event; must not for a clean stream", () => {
    const first = decodeProviderEvents([ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })]);
    expect(first.diagnostics.map((d) => [d.rule, d.severity])).toEqual([['provider.api-error', 'error']]);
    expect(first.diagnostics[0]?.message).toContain('first event');
    const later = decodeProviderEvents([start, ev('error', { error: { type: 'api_error', message: 'boom' } })]);
    expect(rulesOf(later)).toEqual(['provider.api-error']);
    expect(later.diagnostics[0]?.message).not.toContain('first event');
    expect(rulesOf(decodeProviderEvents(complete))).not.toContain('provider.api-error');
  });

  it("'provider.missing-terminal': no message_stop; must not when it came", () => {
    expect(rulesOf(decodeProviderEvents(complete.slice(0, -1)))).toEqual(['provider.missing-terminal']);
    expect(rulesOf(decodeProviderEvents(complete))).toEqual([]);
  });

  it("'provider.block-not-started': a delta for an index never started, its text kept in a block of its own; must not for a started one", () => {
    const result = decodeProviderEvents([start, textDelta(3, 'x'), textDelta(3, 'y'), stop(3), ...end]);
    expect(rulesOf(result)).toEqual(['provider.block-not-started']);
    expect(result.diagnostics[0]?.message).toBe(
      'content_block_delta in event 1 is for block 3, which no content_block_start of this message started; its text is kept in a text block of its own.',
    );
    expect(result.blocks.map((b) => [b.kind, b.status, b.content])).toEqual([
      ['text', 'complete', 'xy'],
      ['message', 'complete', expect.any(String)],
    ]);
    // Inside another open block a stray delta is shown as the provider event it is, and cuts nothing off.
    const stray = decodeProviderEvents([start, textStart(0), textDelta(3, 'x'), textDelta(0, 'Hi'), stop(0), ...end]);
    expect(rulesOf(stray)).toEqual(['provider.block-not-started']);
    expect(stray.envelopes.some((e) => e.control === 'provider-event' && e.type === 'content_block_delta')).toBe(true);
    expect(rulesOf(decodeProviderEvents(complete))).toEqual([]);
  });

  it("'provider.block-started-twice': a second start for an open index; must not after its stop", () => {
    expect(rulesOf(decodeProviderEvents([start, textStart(0), textStart(0), stop(0), ...end]))).toContain(
      'provider.block-started-twice',
    );
    expect(rulesOf(decodeProviderEvents([start, textStart(0), stop(0), textStart(0), stop(0), ...end]))).not.toContain(
      'provider.block-started-twice',
    );
  });

  it("'provider.delta-after-stop': a delta after the block's stop; must not before it", () => {
    expect(rulesOf(decodeProviderEvents([start, textStart(0), stop(0), textDelta(0, 'late'), ...end]))).toEqual([
      'provider.delta-after-stop',
    ]);
    expect(rulesOf(decodeProviderEvents([start, textStart(0), textDelta(0, 'on time'), stop(0), ...end]))).toEqual([]);
  });

  it("'provider.block-not-stopped': message_stop while a block is open; must not when it stopped", () => {
    expect(rulesOf(decodeProviderEvents([start, textStart(0), ...end]))).toContain('provider.block-not-stopped');
    expect(rulesOf(decodeProviderEvents(complete))).not.toContain('provider.block-not-stopped');
  });

  it("'provider.tool-args-invalid': tool input that does not parse once complete; must not for valid input", () => {
    const tool = (partial: string): string[] => [
      start,
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: partial } }),
      stop(0),
      ...end,
    ];
    expect(rulesOf(decodeProviderEvents(tool('{"a": 1')))).toContain('provider.tool-args-invalid');
    expect(rulesOf(decodeProviderEvents(tool('{"a": 1}')))).not.toContain('provider.tool-args-invalid');
  });

  it("'provider.invalid-event': data that is not an event object is kept undecoded; must not for events", () => {
    const result = decodeProviderEvents([start, 'event: message_delta\ndata: {"type": "message_delta",\n\n', ...end]);
    expect(rulesOf(result)).toEqual(['provider.invalid-event']);
    expect(result.envelopes.some((e) => e.control === 'undecoded')).toBe(true);
  });

  it("'provider.unknown-event': unknown block and delta types are kept and shown; must not for known ones", () => {
    const result = decodeProviderEvents([
      start,
      ev('content_block_start', { index: 0, content_block: { type: 'hologram', frames: 2 } }),
      ev('content_block_delta', { index: 0, delta: { type: 'hologram_delta', frame: 1 } }),
      stop(0),
      ...end,
    ]);
    expect(rulesOf(result)).toEqual(['provider.unknown-event', 'provider.unknown-event']);
    expect(result.blocks.map((b) => b.kind)).toEqual(['hologram', 'message']);
    expect(rulesOf(decodeProviderEvents(complete))).not.toContain('provider.unknown-event');
  });
});

describe('compact deltas, read without JSON.parse', () => {
  /** The same delta with its keys in another order: decoded through JSON.parse. */
  const reordered = (index: number, type: 'text_delta' | 'thinking_delta', text: string): string =>
    `event: content_block_delta\ndata: ${JSON.stringify({ delta: { [type === 'text_delta' ? 'text' : 'thinking']: text, type }, index, type: 'content_block_delta' })}\n\n`;
  const thinkingStart = ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } });
  const thinkingDelta = (text: string): string =>
    ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: text } });
  const texts = ['Hi', ' "quoted"\nline', ' 数据 😀', '\\', ''];
  const compact = [
    start,
    thinkingStart,
    ...texts.map(thinkingDelta),
    stop(0),
    textStart(1),
    ...texts.map((t) => textDelta(1, t)),
    textDelta(5, 'stray'),
    stop(1),
    textDelta(1, 'late'),
    ...end,
  ];
  const parsed = [
    start,
    thinkingStart,
    ...texts.map((t) => reordered(0, 'thinking_delta', t)),
    stop(0),
    textStart(1),
    ...texts.map((t) => reordered(1, 'text_delta', t)),
    reordered(5, 'text_delta', 'stray'),
    stop(1),
    reordered(1, 'text_delta', 'late'),
    ...end,
  ];

  it('decode to exactly what the same events in another key order decode to (envelopes, blocks, findings)', () => {
    const a = decodeProviderEvents(compact);
    const b = decodeProviderEvents(parsed);
    const shape = (r: typeof a): unknown => ({
      envelopes: r.envelopes.map(({ byteStart: _s, byteEnd: _e, ...e }) => e),
      blocks: r.blocks.map(({ byteStart: _s, byteEnd: _e, ...block }) => block),
      diagnostics: r.diagnostics.map((d) => [d.rule, d.message]),
    });
    expect(shape(a)).toEqual(shape(b));
    expect(rulesOf(a)).toEqual(['provider.block-not-started', 'provider.delta-after-stop']);
    expect(a.blocks.map((block) => block.content).slice(0, 2)).toEqual([texts.join(''), texts.join('')]);
  });
});

describe('several messages in one capture', () => {
  const second = (id: string): string[] => [
    ev('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        usage: { input_tokens: 3, output_tokens: 1 },
      },
    }),
    textStart(0),
    textDelta(0, 'Again'),
    stop(0),
    ...end,
  ];

  it('a second message_start after message_stop begins the next message: one info finding, both messages complete, done', () => {
    const result = decodeProviderEvents([...complete, ...second('msg_2')]);
    expect(result.diagnostics.map((d) => [d.rule, d.severity])).toEqual([['provider.next-message', 'info']]);
    expect(result.diagnostics[0]?.message).toBe(
      'message_start in event 6 begins message 2 (msg_2) after message 1 ended in event 5: the capture holds several messages, decoded one after another.',
    );
    expect(
      result.blocks.map((b) => [b.kind, b.kind === 'message' ? (b.parsed as { id: string }).id : b.content]),
    ).toEqual([
      ['text', 'Hi'],
      ['message', 'msg_1'],
      ['text', 'Again'],
      ['message', 'msg_2'],
    ]);
    expect(endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind).toBe(
      'done',
    );
  });

  it('the second message cut short: truncated, though the first one stopped', () => {
    const result = decodeProviderEvents([...complete, ...second('msg_2').slice(0, 3)]);
    expect(rulesOf(result)).toContain('provider.missing-terminal');
    expect(endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).kind).toBe(
      'truncated',
    );
  });

  it('a message_start while the message is open: the open one was cut short (another id), or the start is repeated (its own id)', () => {
    const cut = decodeProviderEvents([start, textStart(0), textDelta(0, 'Hi'), ...second('msg_2')]);
    expect(rulesOf(cut)).toEqual(['provider.missing-terminal', 'provider.block-not-stopped', 'block.unterminated']);
    expect(cut.blocks.filter((b) => b.kind === 'message').map((b) => (b.parsed as { status: string }).status)).toEqual([
      'cut',
      'completed',
    ]);
    // A duplicated message_start, as in an SDK suite's duplicate-message-start fixture: one message.
    const repeated = decodeProviderEvents([start, start, textStart(0), textDelta(0, 'ok'), stop(0), ...end]);
    expect(rulesOf(repeated)).toEqual(['provider.block-started-twice']);
    expect(repeated.blocks.map((b) => b.kind)).toEqual(['text', 'message']);
  });
});
