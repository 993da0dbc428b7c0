import { describe, expect, it } from 'vitest';
import { RULES, type RuleId } from '../diagnostics/rules';
import { decodeLegs } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import { splitRandom } from '../testing/chunking';
import { listSseFixtures, readFixture, readManifest } from '../../src-main/testing/fixtures';
import type { Block } from './types';

type Decoded = DecodeResult & { rootAgent: string | undefined };

/** A session through the real pipeline: each file is one leg; `split` re-chunks its bytes. */
function decodeSession(files: readonly string[], split: (bytes: Uint8Array) => Uint8Array[] = (b) => [b]): Decoded {
  const result = decodeLegs(files.map((file) => split(readFixture(file)).map((bytes) => ({ bytes }))));
  return { ...result, rootAgent: result.agents.find((a) => a.parent === null && a.uuid !== '')?.uuid };
}

/** The rules reconstruction raises (its own layer, plus the two it shares with others). */
const isReconstructionRule = (rule: RuleId): boolean =>
  RULES[rule].layer === 'reconstruct' || rule === 'stream.meta-init-not-first' || rule === 'envelope.payload-json';

const rulesOf = (d: Decoded): RuleId[] => d.diagnostics.map((x) => x.rule).filter(isReconstructionRule);
const textBlocks = (d: Decoded, agent?: string): Block[] =>
  d.blocks.filter((b) => b.kind === 'text' && b.status !== 'abandoned' && (agent === undefined || b.agent === agent));
const onlyBlock = (d: Decoded, kind: string): Block => {
  const found = d.blocks.filter((b) => b.kind === kind);
  expect(found).toHaveLength(1);
  return found[0] as Block;
};

/** What a naive per-(agent, type) accumulator gets: every text delta of the agent, concatenated. */
function naiveText(d: Decoded, agent: string): string {
  return d.envelopes
    .filter((e) => !e.control && e.type === 'text' && e.agent === agent)
    .map((e) => e.delta)
    .join('');
}

/** The assistant text blocks a legacy meta_final's conversation_history records, in order. */
function historyTexts(d: Decoded): string[] | undefined {
  const metaFinal = d.blocks.filter((b) => b.kind === 'meta_final').at(-1)?.parsed as
    { conversation_history?: { role: string; content: unknown }[] } | undefined;
  if (!metaFinal?.conversation_history) return undefined;
  return metaFinal.conversation_history
    .filter((m) => m.role === 'assistant' && Array.isArray(m.content))
    .flatMap((m) =>
      (m.content as { type: string; text?: string }[]).filter((c) => c.type === 'text').map((c) => c.text ?? ''),
    );
}

const P = '22222222-2222-4222-8222-222222222222';
const MAIN = '11111111-1111-4111-8111-111111111111';
const FRONTEND = '55555555-5555-4555-8555-555555555555';

describe('reconstruction of the upstream fixtures', () => {
  const manifest = readManifest();
  const jsonFixtures = listSseFixtures().filter((f) => manifest[f]?.kind === 'json');
  const cache = new Map<string, Decoded>();
  const decoded = (...files: string[]): Decoded => {
    const key = files.join('+');
    let result = cache.get(key);
    if (!result) cache.set(key, (result = decodeSession(files)));
    return result;
  };

  it('has JSON fixtures to test', () => {
    expect(jsonFixtures.length).toBeGreaterThanOrEqual(15);
  });

  it.each(jsonFixtures)('%s: text per agent is what MANIFEST text_roundtrip promises', (file) => {
    const d = decoded(file);
    const roundtrip = manifest[file]?.text_roundtrip ?? {};
    for (const [prefix, exact] of Object.entries(roundtrip)) {
      const agent = d.agents.find((a) => a.uuid.startsWith(prefix))?.uuid;
      expect(agent, prefix).toBeDefined();
      const reconstructed = textBlocks(d, agent)
        .map((b) => b.content)
        .join('');
      if (exact) expect(reconstructed).toBe(naiveText(d, agent as string));
      else expect(reconstructed).not.toBe(naiveText(d, agent as string));
    }
  });

  // Legacy runs that end with meta_final (agent_base records a conversation_log instead). A
  // continuation's meta_final records the whole run: that one is checked with both legs below.
  const legacyRunsWithHistory = jsonFixtures.filter(
    (f) =>
      !f.includes('.agent_base.') &&
      !f.startsWith('frontend_tools_resume.') &&
      (manifest[f]?.envelope_types?.['meta_final'] ?? 0) > 0,
  );

  it('has legacy runs with a recorded history', () => {
    expect(legacyRunsWithHistory).toHaveLength(6);
  });

  it.each(legacyRunsWithHistory)(
    '%s: the text blocks equal the ones meta_final records in conversation_history',
    (file) => {
      const d = decoded(file);
      const history = historyTexts(d);
      expect(history).toBeDefined();
      const agent = d.blocks.find((b) => b.kind === 'meta_final')?.agent;
      expect(textBlocks(d, agent).map((b) => b.content)).toEqual(history);
    },
  );

  it.each(jsonFixtures)('%s: every block spans bytes of its own leg and lists its envelopes in order', (file) => {
    const d = decoded(file);
    const size = readFixture(file).length;
    for (const block of d.blocks) {
      expect(block.byteStart).toBeLessThan(block.byteEnd);
      expect(block.byteEnd).toBeLessThanOrEqual(size);
      expect([...block.envelopes].sort((a, b) => a - b)).toEqual(block.envelopes);
    }
  });

  it.each(jsonFixtures)('%s: blocks do not depend on how the bytes were chunked', (file) => {
    const whole = decoded(file);
    const split = decodeSession([file], (bytes) => splitRandom(bytes, 7));
    expect(split.blocks).toEqual(whole.blocks);
    expect(split.agents).toEqual(whole.agents);
    expect(split.diagnostics.filter((x) => isReconstructionRule(x.rule))).toEqual(
      whole.diagnostics.filter((x) => isReconstructionRule(x.rule)),
    );
  });

  it('reports only what is wrong in each fixture', () => {
    const found = Object.fromEntries(jsonFixtures.map((f) => [f, rulesOf(decoded(f))]));
    expect(found).toEqual({
      'error_midstream.json.sse': ['block.unterminated'],
      'example_1.agent_base.json.sse': [],
      'example_1.json.sse': [],
      // The run pauses for user_confirm: the call is awaited (the end status says so), not missing.
      'frontend_tools.agent_base.json.sse': [],
      'frontend_tools.json.sse': [],
      'frontend_tools_chunked.json.sse': [],
      'frontend_tools_resume.agent_base.json.sse': [],
      // Alone, the continuation answers a call made in the first response.
      'frontend_tools_resume.json.sse': ['tool.result-without-call'],
      'json_stream.agent_base.json.sse': [],
      'json_stream.json.sse': [],
      // Sub-agents never stream server_tool_result.
      'multi_agent.json.sse': ['tool.call-without-result', 'tool.call-without-result', 'tool.call-without-result'],
      'probe_citations.agent_base.json.sse': [],
      'probe_citations.json.sse': [],
      'probe_escaping.json.sse': [],
      'retry_midstream.agent_base.json.sse': ['block.restarted'],
      'retry_midstream.json.sse': ['block.restarted'],
    });
  });

  const counterparts = listSseFixtures().filter(
    (f) => /\.(xml|raw)\.sse$/.test(f) && jsonFixtures.includes(f.replace(/\.(xml|raw)\.sse$/, '.json.sse')),
  );
  /** Runs whose XML wire loses information (docs/protocols/upstream-protocol.md §5 #24a, §7 #30). */
  const lossy = new Set(['multi_agent.xml.sse', 'probe_escaping.xml.sse']);
  const shape = (d: Decoded) => ({
    blocks: d.blocks.filter((b) => b.status !== 'abandoned').map((b) => [b.kind, b.toolId ?? null]),
    text: textBlocks(d).map((b) => b.content),
    citations: textBlocks(d).map((b) => b.citations.map(({ envelope: _e, ...c }) => c)),
    pending: d.blocks.flatMap((b) => b.pendingTools ?? []),
  });

  it.each(counterparts)('%s: the same run in another format reconstructs the blocks of its JSON run', (file) => {
    const other = shape(decoded(file));
    const json = shape(decoded(file.replace(/\.(xml|raw)\.sse$/, '.json.sse')));
    if (lossy.has(file)) expect(other.text).not.toEqual(json.text);
    else expect(other).toEqual(json);
  });

  it.each([
    ['retry_midstream.json.sse', 'json_stream.json.sse'],
    ['retry_midstream.agent_base.json.sse', 'json_stream.agent_base.json.sse'],
  ])('%s: the retry replay gives the text blocks of %s plus one abandoned first attempt', (retried, clean) => {
    const r = decoded(retried);
    const c = decoded(clean);
    expect(textBlocks(r).map((b) => b.content)).toEqual(textBlocks(c).map((b) => b.content));
    const abandoned = r.blocks.filter((b) => b.status === 'abandoned');
    expect(abandoned).toHaveLength(1);
    expect(abandoned[0]?.content).toBe(
      'I need to calculate 5 + (10 * 2) following the order of operations (multiplication first,',
    );
    expect(rulesOf(r).filter((x) => x === 'block.restarted')).toHaveLength(1);
    expect(r.blocks.filter((b) => b.status === 'open')).toEqual([]);
  });

  it('multi_agent: three agents, both children linked to the parent, interleaved text kept apart', () => {
    const d = decoded('multi_agent.json.sse');
    expect(d.agents.map((a) => [a.uuid.slice(0, 8), a.parent])).toEqual([
      ['22222222', null],
      ['33333333', P],
      ['44444444', P],
    ]);
    expect(d.rootAgent).toBe(P);
    const child = d.agents[1]?.uuid as string;
    expect(
      textBlocks(d, child)
        .map((b) => b.content)
        .join(''),
    ).toBe(naiveText(d, child));
    for (const spawn of d.blocks.filter((b) => b.name === 'spawn_subagent')) expect(spawn.linkedBlock).toBeDefined();
  });

  it.each(['frontend_tools.json.sse', 'frontend_tools.agent_base.json.sse'])(
    '%s: pendingTools = [user_confirm]',
    (file) => {
      const awaiting = onlyBlock(decoded(file), 'awaiting_frontend_tools');
      expect(awaiting.pendingTools).toEqual([
        {
          toolUseId: 'toolu_synth_confirm',
          name: 'user_confirm',
          input: { message: 'The product is 84 (over 50). Proceed with saving the report?' },
        },
      ]);
    },
  );

  it('frontend_tools.json.sse: the tool_result_image attaches to its tool_result, which closes', () => {
    const d = decoded('frontend_tools.json.sse');
    const chart = d.blocks.find((b) => b.kind === 'tool_result' && b.toolId === 'toolu_synth_chart');
    expect(chart).toMatchObject({ status: 'complete', content: 'Rendered bar chart of [12, 7, 84]' });
    expect(chart?.images).toEqual([
      {
        src: `/agent/${FRONTEND}/images/img_0123456789ab`,
        mediaType: 'image/png',
        envelope: expect.any(Number) as number,
      },
    ]);
    expect(chart?.envelopes).toContain(chart?.images[0]?.envelope);
    expect(d.blocks.filter((b) => b.kind === 'tool_result_image' || b.status === 'open')).toEqual([]);
  });

  it('frontend_tools_chunked.json.sse: the chunked tool call and pending tools are reassembled', () => {
    const d = decoded('frontend_tools_chunked.json.sse');
    const awaiting = onlyBlock(d, 'awaiting_frontend_tools');
    expect(awaiting.envelopes).toHaveLength(3);
    const call = d.blocks.find((b) => b.toolId === 'toolu_synth_confirm' && b.kind === 'tool_call');
    expect(call?.envelopes).toHaveLength(3);
    expect(awaiting.pendingTools).toEqual([
      { toolUseId: 'toolu_synth_confirm', name: 'user_confirm', input: call?.parsed },
    ]);
    const message = (call?.parsed as { message: string }).message;
    expect(message).toContain('naïve café ✓ 😀 path C:\\reports\\r0.txt');
    expect(message.split('\n').length).toBeGreaterThan(50);
  });

  it.each([
    [['frontend_tools.json.sse', 'frontend_tools_resume.json.sse']],
    [['frontend_tools.agent_base.json.sse', 'frontend_tools_resume.agent_base.json.sse']],
  ])('%j: the continuation answers the pause, with nothing left to report', (files) => {
    const d = decoded(...files);
    expect(rulesOf(d)).toEqual([]);
    expect(d.agents).toHaveLength(1);
    expect(textBlocks(d).map((b) => [b.leg, b.content])).toEqual([
      [0, 'Let me compute that, render a chart, then ask you to confirm.'],
      [1, 'Confirmed — the report is saved. 12 × 7 = 84.'],
    ]);
  });

  it('frontend_tools + legacy resume: the user_confirm call links to the result of the next leg', () => {
    const d = decoded('frontend_tools.json.sse', 'frontend_tools_resume.json.sse');
    const call = d.blocks.find((b) => b.kind === 'tool_call' && b.toolId === 'toolu_synth_confirm');
    const result = d.blocks.find((b) => b.kind === 'tool_result' && b.toolId === 'toolu_synth_confirm');
    expect(result).toMatchObject({ leg: 1, content: 'yes', linkedBlock: call?.id });
    expect(call?.linkedBlock).toBe(result?.id);
    expect(historyTexts(d)).toEqual(textBlocks(d).map((b) => b.content));
  });

  it('error_midstream.json.sse: one unterminated text block, and the error frame as a block', () => {
    const d = decoded('error_midstream.json.sse');
    const open = d.blocks.filter((b) => b.status === 'open');
    expect(open.map((b) => [b.kind, b.content])).toEqual([
      ['text', 'I need to calculate 5 + (10 * 2) following the order of operations (multiplication first,'],
    ]);
    const frame = onlyBlock(d, 'error_frame');
    expect(frame).toMatchObject({ status: 'complete', agent: MAIN, parsed: { error: 'APIStatusError' } });
    expect(frame.content).toContain('overloaded_error');
  });

  it('probe_citations: the legacy and agent_base citations are equal and attach to the second text block', () => {
    const legacy = decoded('probe_citations.json.sse');
    const agentBase = decoded('probe_citations.agent_base.json.sse');
    const citations = (d: Decoded) => textBlocks(d).map((b) => b.citations.map(({ envelope: _e, ...c }) => c));
    expect(citations(agentBase)).toEqual(citations(legacy));
    expect(citations(legacy)).toEqual([
      [],
      [
        {
          citationType: 'char_location',
          citedText: 'The grass is green.',
          fields: { document_index: 0, document_title: 'My "Doc" & notes', start_char_index: 0, end_char_index: 20 },
        },
        {
          citationType: 'page_location',
          citedText: 'Page two says hi.',
          fields: { document_index: 1, start_page_number: 2, end_page_number: 3 },
        },
        {
          citationType: 'web_search_result_location',
          citedText: 'Sky is blue <b>today</b>',
          fields: { url: 'https://example.com/sky?x=1&y=2', title: 'Weather ]]>' },
        },
      ],
      [],
    ]);
  });

  it('agent_base resume: meta_init again at the start of the continuation updates the agent without a warning', () => {
    const d = decoded('frontend_tools.agent_base.json.sse', 'frontend_tools_resume.agent_base.json.sse');
    const metaInits = d.blocks.filter((b) => b.kind === 'meta_init');
    expect(metaInits.map((b) => [b.leg, b.envelopes.length, b.parseError])).toEqual([
      [0, 1, undefined],
      [1, 3, undefined],
    ]);
    expect(d.agents[0]?.metaInitEnvelope).toBe(metaInits[0]?.envelopes[0]);
    expect(d.agents[0]?.model).toBe('claude-sonnet-4-5');
  });
});
