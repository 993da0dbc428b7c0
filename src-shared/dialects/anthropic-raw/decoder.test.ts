import { describe, expect, it, test } from 'vitest';
import { chunkings } from '../../testing/chunking';
import { listSseFixtures, readFixture, readManifest } from '../../../src-main/testing/fixtures';
import {
  deltaBlocks,
  envelopeShapes,
  jsonFixtureEnvelopes,
  payloads,
  rulesOf,
  runDialectOnChunks,
  runDialectOnItems,
  type Comparable,
  type DialectRun,
} from '../../../src-main/testing/dialects';
import type { DialectOptions } from '../types';
import { createAnthropicRawDecoder } from './decoder';

const AGENT = '66666666-6666-4666-8666-666666666666';

const decode = (events: readonly (object | string)[], options?: DialectOptions): DialectRun =>
  runDialectOnItems(createAnthropicRawDecoder, events, options);

/** The envelopes without the provider events. */
const content = (run: DialectRun): ReturnType<typeof envelopeShapes> =>
  envelopeShapes(run.envelopes.filter((e) => e.control !== 'provider-event'));

const start = (index: number, block: object): object => ({ type: 'content_block_start', index, content_block: block });
const delta = (index: number, d: object): object => ({ type: 'content_block_delta', index, delta: d });
const stop = (index: number, block?: object): object =>
  block ? { type: 'content_block_stop', index, content_block: block } : { type: 'content_block_stop', index };
const messageStart = { type: 'message_start', message: { id: 'msg_1', content: [], usage: { input_tokens: 3 } } };

describe('Anthropic events', () => {
  it('maps a text block as the JSON formatter does and shows lifecycle events as provider events', () => {
    const run = decode([
      messageStart,
      start(0, { type: 'text', text: '', citations: null }),
      delta(0, { type: 'text_delta', text: 'Hel' }),
      delta(0, { type: 'text_delta', text: '' }),
      delta(0, { type: 'text_delta', text: 'lo\n' }),
      stop(0, { type: 'text', text: 'Hello\n', citations: null }),
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ]);
    expect(run.envelopes.map(({ agent: _a, ...e }) => e)).toEqual([
      {
        frame: 0,
        type: 'message_start',
        final: true,
        delta: '',
        extras: { message: messageStart.message },
        control: 'provider-event',
      },
      { frame: 1, type: 'text', final: false, delta: '', extras: { index: 0 }, control: 'block-open' },
      { frame: 2, type: 'text', final: false, delta: 'Hel', extras: {} },
      {
        frame: 3,
        type: 'content_block_delta',
        final: true,
        delta: '',
        extras: { index: 0, delta: { type: 'text_delta', text: '' } },
        control: 'provider-event',
      },
      { frame: 4, type: 'text', final: false, delta: 'lo\n', extras: {} },
      { frame: 5, type: 'text', final: true, delta: '', extras: {} },
      {
        frame: 6,
        type: 'message_delta',
        final: true,
        delta: '',
        extras: { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
        control: 'provider-event',
      },
      { frame: 7, type: 'message_stop', final: true, delta: '', extras: {}, control: 'provider-event' },
    ]);
    expect(run.diagnostics).toEqual([]);
  });

  it('streams thinking and shows signature deltas as provider events only', () => {
    const run = decode([
      start(0, { type: 'thinking', thinking: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Hmm' }),
      delta(0, { type: 'signature_delta', signature: 'sig' }),
      stop(0),
    ]);
    expect(content(run)).toEqual([
      { type: 'thinking', final: false, delta: '', extras: { index: 0 }, control: 'block-open' },
      { type: 'thinking', final: false, delta: 'Hmm', extras: {} },
      { type: 'thinking', final: true, delta: '', extras: {} },
    ]);
  });

  test.each([
    ['parsed input, re-serialised', ['{"a": 1', '2, "b": ["x"]}'], '{"a":12,"b":["x"]}'],
    ['no input at all', [], '{}'],
    ['input that does not parse, as a JSON string', ['{"a": '], '"{\\"a\\": "'],
  ])('buffers tool_use input into one tool_call at the stop: %s', (_name, parts, expected) => {
    const run = decode([
      start(1, { type: 'tool_use', id: 'toolu_1', name: 'grep', input: {} }),
      ...parts.map((p) => delta(1, { type: 'input_json_delta', partial_json: p })),
      stop(1),
    ]);
    expect(content(run)).toEqual([
      { type: 'tool_call', final: true, delta: expected, extras: { id: 'toolu_1', name: 'grep' } },
    ]);
  });

  it('maps server_tool_use and *_tool_result blocks to server_tool_call and server_tool_result named by block type', () => {
    const result = {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_1',
      content: [{ type: 'web_search_result', title: 'T', url: 'https://x' }],
    };
    const run = decode([
      start(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '{"query": "q"}' }),
      stop(0),
      start(1, result),
      stop(1, result),
    ]);
    expect(content(run)).toEqual([
      {
        type: 'server_tool_call',
        final: true,
        delta: '{"query":"q"}',
        extras: { id: 'srvtoolu_1', name: 'web_search' },
      },
      {
        type: 'server_tool_result',
        final: true,
        delta: JSON.stringify(result.content),
        extras: { id: 'srvtoolu_1', name: 'web_search_tool_result' },
      },
    ]);
  });

  it("emits the stop event's citations after the text final marker, the last one final", () => {
    const citations = [
      {
        type: 'char_location',
        cited_text: 'A',
        document_index: 0,
        document_title: null,
        start_char_index: 0,
        end_char_index: 1,
        file_id: null,
      },
      { type: 'web_search_result_location', cited_text: 'B', url: 'https://x', title: 'T', encrypted_index: 'e' },
    ];
    const run = decode([start(0, { type: 'text', text: '' }), stop(0, { type: 'text', text: 'x', citations })]);
    expect(content(run).slice(1)).toEqual([
      { type: 'text', final: true, delta: '', extras: {} },
      {
        type: 'citation',
        final: false,
        delta: 'A',
        extras: { citation_type: 'char_location', document_index: 0, start_char_index: 0, end_char_index: 1 },
      },
      {
        type: 'citation',
        final: true,
        delta: 'B',
        extras: { citation_type: 'web_search_result_location', url: 'https://x', title: 'T' },
      },
    ]);
  });

  it('restarts block indexes with every message_start', () => {
    const call = [
      messageStart,
      start(0, { type: 'text' }),
      delta(0, { type: 'text_delta', text: 'x' }),
      stop(0),
      { type: 'message_stop' },
    ];
    const run = decode([...call, ...call]);
    expect(content(run).filter((e) => e.type === 'text' && !e.control)).toHaveLength(4);
    expect(run.diagnostics).toEqual([]);
  });

  it('delegates agent-layer XML items and stamps the meta_init agent on events', () => {
    const meta = `<meta_init data="{&quot;format&quot;: &quot;raw&quot;, &quot;agent_uuid&quot;: &quot;${AGENT}&quot;, &quot;parent_agent_uuid&quot;: null}"></meta_init>`;
    const run = decode(
      [
        meta,
        messageStart,
        '<content-block-tool_result id="toolu_1" name="grep"><![CDATA[a\\nb]]></content-block-tool_result>',
      ],
      { defaultAgent: 'before' },
    );
    expect(run.envelopes.map((e) => [e.type, e.agent])).toEqual([
      ['meta_init', AGENT],
      ['message_start', AGENT],
      ['tool_result', AGENT],
    ]);
    expect(run.envelopes[2]?.delta).toBe('a\nb');
    expect(run.diagnostics).toEqual([]);
  });

  it('stamps defaultAgent when no meta_init came (a continuation leg)', () => {
    expect(decode([messageStart], { defaultAgent: AGENT }).envelopes[0]?.agent).toBe(AGENT);
  });

  it('maps an error event to an error envelope', () => {
    const run = decode([{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]);
    expect(content(run)).toEqual([
      { type: 'error', final: true, delta: '{"type":"overloaded_error","message":"Overloaded"}', extras: {} },
    ]);
  });
});

const RULE_CASES: { rule: string; triggers: (object | string)[]; clean: (object | string)[] }[] = [
  { rule: 'raw.unknown-event', triggers: [{ type: 'content_block_flush', index: 0 }], clean: [{ type: 'ping' }] },
  {
    rule: 'raw.unknown-event',
    triggers: [start(0, { type: 'text' }), delta(0, { type: 'poem_delta', poem: 'x' })],
    clean: [start(0, { type: 'text' }), delta(0, { type: 'citations_delta', citation: {} })],
  },
  { rule: 'raw.unknown-event', triggers: [{ no_type: true }], clean: [{ type: 'message_stop' }] },
  {
    rule: 'raw.index-mismatch',
    triggers: [start(0, { type: 'text' }), delta(1, { type: 'text_delta', text: 'x' })],
    clean: [start(1, { type: 'text' }), delta(1, { type: 'text_delta', text: 'x' })],
  },
  {
    rule: 'raw.index-mismatch',
    triggers: [start(0, { type: 'text' }), stop(0), stop(0)],
    clean: [start(0, { type: 'text' }), stop(0)],
  },
  {
    rule: 'raw.index-mismatch',
    triggers: [start(0, { type: 'text' }), start(0, { type: 'text' })],
    clean: [start(0, { type: 'text' }), stop(0), start(0, { type: 'text' })],
  },
  {
    rule: 'raw.index-mismatch',
    triggers: [{ type: 'content_block_stop' }],
    clean: [start(0, { type: 'text' }), stop(0)],
  },
  {
    rule: 'raw.block-not-stopped',
    triggers: [messageStart, start(0, { type: 'tool_use', id: 't', name: 'n' }), messageStart],
    clean: [messageStart, start(0, { type: 'tool_use', id: 't', name: 'n' }), stop(0), messageStart],
  },
  {
    rule: 'raw.block-not-stopped',
    triggers: [start(0, { type: 'text' })],
    clean: [start(0, { type: 'text' }), stop(0)],
  },
  { rule: 'json.invalid', triggers: ['{"type": "message_start"'], clean: ['{"type": "message_start"}'] },
];

describe('rules', () => {
  test.each(RULE_CASES)('$rule: triggered by $triggers', ({ rule, triggers }) => {
    expect(rulesOf(decode(triggers))).toContain(rule);
  });
  test.each(RULE_CASES)('$rule: not triggered by $clean', ({ rule, clean }) => {
    expect(rulesOf(decode(clean))).not.toContain(rule);
  });

  it('keeps an event it cannot place: a delta for a block never started shows as a provider event', () => {
    const run = decode([delta(4, { type: 'text_delta', text: 'lost?' })]);
    expect(run.envelopes).toEqual([
      expect.objectContaining({
        control: 'provider-event',
        extras: { index: 4, delta: { type: 'text_delta', text: 'lost?' } },
      }),
    ]);
    expect(run.diagnostics[0]).toMatchObject({ rule: 'raw.index-mismatch', at: { frame: 0 } });
  });
});

// ---- Real upstream streams ------------------------------------------------------------------

const manifest = readManifest();
const rawFixtures = listSseFixtures().filter((f) => f.endsWith('.raw.sse'));

function decodeFixture(name: string, options?: DialectOptions): DialectRun {
  return runDialectOnChunks(createAnthropicRawDecoder, [readFixture(name)], options);
}

const PAIRED = [
  'example_1',
  'json_stream',
  'frontend_tools',
  'frontend_tools_resume',
  'probe_citations',
  'probe_escaping',
];

describe('upstream raw fixtures', () => {
  test.each(rawFixtures)('%s: every event yields an envelope, none undecoded, no finding', (name) => {
    const run = decodeFixture(name);
    const covered = new Set(run.envelopes.map((e) => e.frame));
    expect(run.frames.filter((f) => !covered.has(f.seq))).toEqual([]);
    expect(run.envelopes.filter((e) => e.control === 'undecoded')).toEqual([]);
    expect(run.diagnostics).toEqual([]);
  });

  test.each(rawFixtures)('%s: agent-layer XML items match MANIFEST xml_item_tags', (name) => {
    const run = decodeFixture(name);
    const xmlFrames = new Set(run.frames.filter((f) => f.data.startsWith('<')).map((f) => f.seq));
    const tags: Record<string, number> = {};
    const seen = new Set<number>();
    for (const e of run.envelopes) {
      if (!xmlFrames.has(e.frame) || seen.has(e.frame)) continue;
      seen.add(e.frame);
      const tag =
        e.type.startsWith('meta_i') || e.type === 'meta_final' || e.type === 'awaiting_frontend_tools'
          ? e.type
          : `content-block-${e.type}`;
      tags[tag] = (tags[tag] ?? 0) + 1;
    }
    expect(tags).toEqual(manifest[name]?.xml_item_tags);
  });

  test.each(PAIRED)("%s: text and thinking deltas equal the JSON run's, delta by delta", (stem) => {
    const raw = decodeFixture(`${stem}.raw.sse`).envelopes;
    const json = jsonFixtureEnvelopes(`${stem}.json.sse`);
    for (const type of ['text', 'thinking']) expect(deltaBlocks(raw, type)).toEqual(deltaBlocks(json, type));
    expect(deltaBlocks(raw, 'text').length).toBeGreaterThan(0);
  });

  test.each(PAIRED)("%s: tool calls, citations and agent-layer payloads equal the JSON run's", (stem) => {
    const json = jsonFixtureEnvelopes(`${stem}.json.sse`);
    // A continuation leg has no meta_init: the session gives the agent of the earlier leg.
    const raw = decodeFixture(
      `${stem}.raw.sse`,
      stem.endsWith('_resume') ? { defaultAgent: json[0]?.agent ?? '' } : {},
    ).envelopes;
    for (const type of ['tool_call', 'server_tool_call', 'meta_final', 'awaiting_frontend_tools', 'meta_files']) {
      expect(payloads(raw, type).map((p) => JSON.parse(p) as unknown)).toEqual(
        payloads(json, type).map((p) => JSON.parse(p) as unknown),
      );
    }
    const pick = (e: Comparable & { extras?: unknown }, extras: unknown): unknown => ({
      type: e.type,
      final: e.final,
      delta: e.delta,
      extras,
    });
    const idName = (x: Record<string, unknown>): unknown => ({ id: x['id'], name: x['name'] });
    const isCall = (e: Comparable): boolean => e.type === 'tool_call' || e.type === 'server_tool_call';
    expect(raw.filter(isCall).map((e) => idName(e.extras))).toEqual(
      json.filter((e) => isCall(e) && e.final).map(idName),
    );
    const citations = (e: Comparable): boolean => e.type === 'citation';
    expect(raw.filter(citations).map((e) => pick(e, e.extras))).toEqual(
      json
        .filter(citations)
        .map(({ type, agent: _a, final, delta, ...extras }) => pick({ type, final, delta }, extras)),
    );
    // Server tool results: upstream JSON gives the SDK objects' Python repr, raw the structured JSON; ids and names agree.
    const results = (list: readonly { type: string; extras?: Record<string, unknown> }[]): unknown[] =>
      list.filter((e) => e.type === 'server_tool_result').map((e) => e.extras);
    expect(results(raw).map((x) => idName(x as Record<string, unknown>))).toEqual(
      json.filter((e) => e.type === 'server_tool_result' && e.final).map(idName),
    );
    expect(new Set(raw.map((e) => e.agent))).toEqual(new Set(json.map((e) => e.agent)));
  });

  it('probe_escaping: raw keeps what the XML format loses (CR, literal backslash-n in text)', () => {
    const text = deltaBlocks(decodeFixture('probe_escaping.raw.sse').envelopes, 'text')[0]?.join('') ?? '';
    expect(text).toContain('CRLF:\r\nafter | lone CR:\rafter');
    expect(text).toContain('literal backslash-n: \\n');
  });

  it('json_stream: three API calls, each restarting at index 0, decode without index findings', () => {
    const run = decodeFixture('json_stream.raw.sse');
    expect(run.envelopes.filter((e) => e.type === 'message_start')).toHaveLength(3);
    expect(run.envelopes.filter((e) => e.control === 'block-open').map((e) => e.extras['index'])).toEqual([0, 0]);
  });

  it('frontend_tools_resume: a continuation leg is stamped with defaultAgent', () => {
    const run = decodeFixture('frontend_tools_resume.raw.sse', {
      defaultAgent: '55555555-5555-4555-8555-555555555555',
    });
    expect(new Set(run.envelopes.map((e) => e.agent))).toEqual(new Set(['55555555-5555-4555-8555-555555555555']));
  });

  test.each(rawFixtures)('%s: results do not depend on how the bytes were chunked', (name) => {
    const bytes = readFixture(name);
    const whole = runDialectOnChunks(createAnthropicRawDecoder, [bytes]);
    const seeds = bytes.length > 50_000 ? [] : [7, 99];
    for (const chunking of chunkings(bytes, seeds)) {
      const run = runDialectOnChunks(createAnthropicRawDecoder, chunking.chunks);
      expect({ chunking: chunking.name, envelopes: run.envelopes, diagnostics: run.diagnostics }).toEqual({
        chunking: chunking.name,
        envelopes: whole.envelopes,
        diagnostics: whole.diagnostics,
      });
    }
  });
});
