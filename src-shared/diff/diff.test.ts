import { describe, expect, it } from 'vitest';
import type { DialectId } from '../dialects/registry';
import type { Envelope } from '../envelope/types';
import type { AgentInfo, Block, Citation, ImageRef } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import { diffSessions } from './diff';
import { diffTranscript } from './transcript';
import type { DiffInput, DiffRow } from './types';

const ROOT = 'aaaaaaaa-0000-4000-8000-000000000000';
const CHILD = 'bbbbbbbb-0000-4000-8000-000000000000';

interface BlockSpec {
  kind: string;
  content?: string;
  /** The deltas the block was built from (default: the content in one envelope). */
  deltas?: string[];
  agent?: string;
  name?: string;
  toolId?: string;
  status?: Block['status'];
  citations?: Omit<Citation, 'envelope'>[];
  images?: Omit<ImageRef, 'envelope'>[];
  extras?: Record<string, unknown>;
}

interface SessionSpec {
  dialect?: DialectId;
  blocks: BlockSpec[];
  /** uuid → parent uuid; agents not listed are roots. */
  parents?: Record<string, string>;
  /** Extra control envelopes (e.g. xml open tags) per block kind are not modelled here. */
  frames?: boolean;
}

const JSON_KINDS = new Set([
  'meta_init',
  'meta_final',
  'meta_files',
  'tool_call',
  'server_tool_call',
  'awaiting_frontend_tools',
]);

/** A decoded session built by hand: one envelope per delta, blocks as the reconstructor makes them. */
function session(spec: SessionSpec): DiffInput {
  const dialect = spec.dialect ?? 'json';
  const envelopes: Envelope[] = [];
  const frames: Frame[] = [];
  const blocks: Block[] = [];
  const agents: AgentInfo[] = [];
  let byte = 0;
  for (const [id, b] of spec.blocks.entries()) {
    const agent = b.agent ?? ROOT;
    const content = b.content ?? '';
    const deltas = b.deltas ?? [content];
    const seqs: number[] = [];
    if (!agents.some((a) => a.uuid === agent))
      agents.push({ uuid: agent, parent: spec.parents?.[agent] ?? null, firstEnvelope: envelopes.length });
    for (const [i, delta] of deltas.entries()) {
      const seq = envelopes.length;
      const extras: Record<string, unknown> = {
        ...(b.toolId !== undefined ? { id: b.toolId } : {}),
        ...(b.name !== undefined ? { name: b.name } : {}),
        ...b.extras,
      };
      const data = JSON.stringify({ type: b.kind, agent, final: i === deltas.length - 1, delta, ...extras });
      const size = data.length + 8;
      envelopes.push({
        seq,
        frame: seq,
        leg: 0,
        dialect,
        agent,
        type: b.kind,
        final: i === deltas.length - 1,
        delta,
        extras,
        byteStart: byte,
        byteEnd: byte + size,
        receivedAt: 0,
      });
      frames.push({
        seq,
        byteStart: byte,
        byteEnd: byte + size,
        chunkFirst: 0,
        chunkLast: 0,
        receivedAt: 0,
        event: '',
        data,
        id: '',
        dataLines: 1,
        maxDataLineBytes: data.length,
      });
      byte += size;
      seqs.push(seq);
    }
    const block: Block = {
      id,
      agent,
      kind: b.kind,
      status: b.status ?? 'complete',
      content,
      citations: (b.citations ?? []).map((c) => ({ ...c, envelope: seqs[0] ?? 0 })),
      images: (b.images ?? []).map((i) => ({ ...i, envelope: seqs[0] ?? 0 })),
      envelopes: seqs,
      leg: 0,
      byteStart: 0,
      byteEnd: 0,
    };
    if (b.name !== undefined) block.name = b.name;
    if (b.toolId !== undefined) block.toolId = b.toolId;
    if (JSON_KINDS.has(b.kind)) block.parsed = JSON.parse(content) as unknown;
    blocks.push(block);
  }
  return { blocks, agents, envelopes, ...(spec.frames ? { frames: [frames] } : {}) };
}

/** JSON spaced as Python's json.dumps spaces it (", " and ": "), as the legacy server sends meta payloads. */
const spaced = (value: unknown): string => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');

const brief = (rows: readonly DiffRow[]): string[] =>
  rows.map(
    (r) =>
      `${r.status} ${r.kind}${r.inherent ? ` [${r.inherent}]` : ''}${r.normalisations.length ? ` {${r.normalisations.join(',')}}` : ''}`,
  );

const text = (content: string, agent?: string): BlockSpec => ({ kind: 'text', content, ...(agent ? { agent } : {}) });
const call = (id: string, name: string, args: string): BlockSpec => ({
  kind: 'tool_call',
  toolId: id,
  name,
  content: args,
});
const result = (id: string, name: string, content: string, images?: BlockSpec['images']): BlockSpec => ({
  kind: 'tool_result',
  toolId: id,
  name,
  content,
  ...(images ? { images } : {}),
});

describe('diffSessions: alignment', () => {
  it('finds identical sessions equal, with no normalisation', () => {
    const blocks = [text('Hello'), call('t1', 'add', '{"a": 1}'), result('t1', 'add', '2')];
    const diff = diffSessions(session({ blocks }), session({ blocks }));
    expect(brief(diff.rows)).toEqual(['equal text', 'equal tool_call', 'equal tool_result']);
    expect(diff.counts).toMatchObject({
      equal: 3,
      changed: 0,
      onlyLeft: 0,
      onlyRight: 0,
      differences: 0,
      normalised: 0,
    });
    expect(diff.rows[1]).toMatchObject({
      left: { blockId: 1 },
      right: { blockId: 1 },
      name: 'add',
      toolId: 't1',
      reason: 'equal',
    });
  });

  it('reports a block inserted on one side without disturbing the rest', () => {
    const left = session({ blocks: [text('A'), call('t1', 'add', '{}'), text('B')] });
    const right = session({
      blocks: [text('A'), { kind: 'thinking', content: 'hmm' }, call('t1', 'add', '{}'), text('B')],
    });
    const diff = diffSessions(left, right);
    expect(brief(diff.rows)).toEqual(['equal text', 'only-right thinking', 'equal tool_call', 'equal text']);
    expect(diff.rows[1]).toMatchObject({ right: { blockId: 1, text: 'hmm' }, reason: 'only in right' });
    expect(diff.rows[1]?.left).toBeUndefined();
    expect(diff.counts).toMatchObject({ onlyRight: 1, differences: 1 });
  });

  it('pairs blocks of the same kind inside a gap as changed, and says what differs', () => {
    const diff = diffSessions(
      session({ blocks: [call('t1', 'add', '{"a": 1}')] }),
      session({ blocks: [call('t1', 'multiply', '{"a": 2}')] }),
    );
    expect(brief(diff.rows)).toEqual(['changed tool_call']);
    expect(diff.rows[0]?.reason).toBe('arguments, name differ');
  });

  it('compares text exactly: one changed character is a difference', () => {
    const diff = diffSessions(session({ blocks: [text('colour')] }), session({ blocks: [text('color')] }));
    expect(diff.rows[0]).toMatchObject({
      status: 'changed',
      reason: 'content differs',
      left: { text: 'colour' },
      right: { text: 'color' },
    });
    expect(diff.counts.differences).toBe(1);
  });

  it('reports a status difference (a block left open on one side)', () => {
    const diff = diffSessions(
      session({ blocks: [text('A')] }),
      session({ blocks: [{ kind: 'text', content: 'A', status: 'open' }] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', reason: 'status (complete vs open) differs' });
  });

  it('matches a tool result that streamed out of order, and says so', () => {
    // Parallel tools: results arrive in completion order.
    const calls = [call('t1', 'a', '{}'), call('t2', 'a', '{}')];
    const left = session({ blocks: [...calls, result('t1', 'a', 'one'), result('t2', 'a', 'two'), text('x')] });
    const right = session({ blocks: [...calls, result('t2', 'a', 'two'), result('t1', 'a', 'one'), text('x')] });
    const diff = diffSessions(left, right);
    expect(diff.counts.differences).toBe(0);
    expect(diff.rows.filter((r) => r.normalisations.includes('tool-order'))).toHaveLength(1);
    for (const row of diff.rows) expect(row.left?.text).toBe(row.right?.text);
  });

  it('compares tool ids: the same call with another id is a difference', () => {
    const diff = diffSessions(
      session({ blocks: [call('t1', 'add', '{}')] }),
      session({ blocks: [call('t9', 'add', '{}')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', reason: 'tool id differs' });
  });

  it('compares citations attached to a text block', () => {
    const cite = (end: number): BlockSpec => ({
      kind: 'text',
      content: 'T',
      citations: [
        { citationType: 'char_location', citedText: 'T', fields: { start_char_index: 0, end_char_index: end } },
      ],
    });
    expect(diffSessions(session({ blocks: [cite(1)] }), session({ blocks: [cite(1)] })).rows[0]?.status).toBe('equal');
    const changed = diffSessions(session({ blocks: [cite(1)] }), session({ blocks: [cite(2)] })).rows[0];
    expect(changed).toMatchObject({ status: 'changed', reason: 'citations differ' });
    expect(changed?.left?.text).toContain('[citation char_location] "T"');
  });
});

describe('diffSessions: agents', () => {
  it('aligns per agent, matching agents by uuid', () => {
    const blocks = [text('parent', ROOT), text('child', CHILD), text('parent again', ROOT)];
    const diff = diffSessions(
      session({ blocks, parents: { [CHILD]: ROOT } }),
      session({ blocks: [blocks[1]!, blocks[0]!, blocks[2]!], parents: { [CHILD]: ROOT } }),
    );
    expect(diff.agents).toEqual([
      { left: ROOT, right: ROOT, by: 'uuid' },
      { left: CHILD, right: CHILD, by: 'uuid' },
    ]);
    expect(diff.flattened).toBe(false);
    expect(brief(diff.rows)).toEqual(['equal text', 'equal text', 'equal text']);
    expect(diff.rows.map((r) => r.pair)).toEqual([0, 0, 1]);
  });

  it('matches agents of two runs by their tree when the uuids differ', () => {
    const other = { root: 'cccccccc-0000-4000-8000-000000000000', child: 'dddddddd-0000-4000-8000-000000000000' };
    const left = session({ blocks: [text('p', ROOT), text('c', CHILD)], parents: { [CHILD]: ROOT } });
    const right = session({
      blocks: [text('p', other.root), text('c', other.child)],
      parents: { [other.child]: other.root },
    });
    const diff = diffSessions(left, right);
    expect(diff.agents).toEqual([
      { left: ROOT, right: other.root, by: 'structure' },
      { left: CHILD, right: other.child, by: 'structure' },
    ]);
    expect(diff.counts.differences).toBe(0);
  });

  it('keeps an agent seen on one side only as unmatched, its blocks only on that side', () => {
    const left = session({ blocks: [text('p', ROOT), text('c', CHILD)], parents: { [CHILD]: ROOT } });
    const right = session({ blocks: [text('p', ROOT)] });
    const diff = diffSessions(left, right);
    expect(diff.agents[1]).toEqual({ left: CHILD, by: 'unmatched' });
    expect(brief(diff.rows)).toEqual(['equal text', 'only-left text']);
  });

  it('aligns across agents when a side cannot attribute sub-agents, and marks what that explains', () => {
    // The xml side stamps everything with the root: the child's text cannot be attributed,
    // and interleaving garbled it.
    const json = session({
      blocks: [text('spawning', ROOT), text('child says hi', CHILD), text('done', ROOT)],
      parents: { [CHILD]: ROOT },
    });
    const xml = session({ dialect: 'xml', blocks: [text('spawning'), text('child sayshi '), text('done')] });
    const diff = diffSessions(json, xml);
    expect(diff.flattened).toBe(true);
    expect(brief(diff.rows)).toEqual([
      'equal text',
      'changed text [unattributed-sub-agents] {agent-attribution}',
      'equal text',
    ]);
    expect(diff.counts).toMatchObject({ inherent: 1, differences: 0 });
  });

  it("still reports a difference in the root agent's own blocks when aligning across agents", () => {
    const json = session({
      blocks: [text('spawning', ROOT), text('child', CHILD), text('done', ROOT)],
      parents: { [CHILD]: ROOT },
    });
    const xml = session({ dialect: 'xml', blocks: [text('spawning'), text('child'), text('DONE')] });
    const diff = diffSessions(json, xml);
    expect(brief(diff.rows)).toEqual(['equal text', 'equal text {agent-attribution}', 'changed text']);
    expect(diff.counts.differences).toBe(1);
  });
});

describe('diffSessions: normalisations', () => {
  it('compares JSON payloads as values: Python spacing against compact JSON', () => {
    const diff = diffSessions(
      session({ blocks: [call('t1', 'add', '{"a": 1, "b": [1, 2]}')] }),
      session({ blocks: [call('t1', 'add', '{"a":1,"b":[1,2]}')] }),
    );
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['json-value'],
      reason: 'equal after normalising JSON spacing and escapes',
    });
    expect(diff.rows[0]?.left?.text).toBe(diff.rows[0]?.right?.text);
    expect(diff.counts.normalised).toBe(1);
  });

  it('reads ensure_ascii escapes as the characters they stand for', () => {
    const diff = diffSessions(
      session({ blocks: [{ kind: 'meta_final', content: '{"t": "na\\u00efve"}' }] }),
      session({ blocks: [{ kind: 'meta_final', content: '{"t": "naïve"}' }] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'equal', normalisations: ['json-value'] });
  });

  it('lists the JSON normalisation beside another only when the texts are also written differently', () => {
    const meta = (format: string, text: (v: unknown) => string): BlockSpec => ({
      kind: 'meta_init',
      content: text({ format, model: 'm' }),
    });
    const sameStyle = diffSessions(
      session({ blocks: [meta('xml', spaced)] }),
      session({ dialect: 'raw', blocks: [meta('raw', spaced)] }),
    );
    expect(sameStyle.rows[0]?.normalisations).toEqual(['meta-format-field']);
    const otherStyle = diffSessions(
      session({ blocks: [meta('json', spaced)] }),
      session({ dialect: 'xml', blocks: [meta('xml', JSON.stringify)] }),
    );
    expect(otherStyle.rows[0]?.normalisations).toEqual(['json-value', 'meta-format-field']);
  });

  it('does not list the JSON normalisation on a changed row', () => {
    const diff = diffSessions(
      session({ blocks: [call('t1', 'add', '{"a": 1}')] }),
      session({ blocks: [call('t1', 'add', '{"a":2}')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', normalisations: [], reason: 'arguments differ' });
  });

  it('ignores the meta_init format field, which names the wire format', () => {
    const meta = (format: string): BlockSpec => ({
      kind: 'meta_init',
      content: spaced({ format, user_query: 'q', model: 'm' }),
    });
    const diff = diffSessions(session({ blocks: [meta('json')] }), session({ dialect: 'xml', blocks: [meta('xml')] }));
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['meta-format-field'],
      reason: 'equal after normalising meta_init format',
    });
    expect(diff.rows[0]?.left?.text).not.toContain('format');
  });

  it('still compares the rest of meta_init', () => {
    const meta = (format: string, model: string): BlockSpec => ({
      kind: 'meta_init',
      content: JSON.stringify({ format, model }),
    });
    const diff = diffSessions(
      session({ blocks: [meta('json', 'a')] }),
      session({ dialect: 'xml', blocks: [meta('xml', 'b')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', reason: 'content differs' });
  });

  it('renders a raw structured server tool result as the repr json sends', () => {
    const structured = { content: [], return_code: 0, stdout: "it's\n", type: 'bash_code_execution_result' };
    const repr =
      "BetaBashCodeExecutionResultBlock(content=[], return_code=0, stdout=\"it's\\n\", type='bash_code_execution_result')";
    const block = (content: string): BlockSpec => ({
      kind: 'server_tool_result',
      toolId: 's1',
      name: 'bash_code_execution_tool_result',
      content,
    });
    const diff = diffSessions(
      session({ blocks: [block(JSON.stringify(repr))] }),
      session({ dialect: 'raw', blocks: [block(JSON.stringify(structured))] }),
    );
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['server-tool-result-repr'],
      left: { text: repr },
      right: { text: repr },
    });

    const other = diffSessions(
      session({ blocks: [block(JSON.stringify(repr))] }),
      session({ dialect: 'raw', blocks: [block(JSON.stringify({ ...structured, return_code: 1 }))] }),
    );
    expect(other.rows[0]?.status).toBe('changed');
  });

  it('undoes what xml tool_result CDATA cannot keep: CR, CRLF and a literal backslash-n', () => {
    const diff = diffSessions(
      session({ blocks: [result('t', 'echo', 'a\\n b\r\nc\rd')] }),
      session({ dialect: 'xml', blocks: [result('t', 'echo', 'a\n b\nc\nd')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'equal', normalisations: ['xml-tool-result-newlines'] });
    const json = diffSessions(
      session({ blocks: [result('t', 'echo', 'a\\n')] }),
      session({ blocks: [result('t', 'echo', 'a\n')] }),
    );
    expect(json.rows[0]?.status).toBe('changed');
  });

  it('drops empty citation fields only against an xml side', () => {
    const cite = (fields: Record<string, unknown>): BlockSpec => ({
      kind: 'text',
      content: 'T',
      citations: [{ citationType: 'web_search_result_location', citedText: 'T', fields }],
    });
    const json = session({ blocks: [cite({ url: 'u', title: '' })] });
    expect(diffSessions(json, session({ dialect: 'xml', blocks: [cite({ url: 'u' })] })).rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['xml-citation-empty'],
    });
    expect(diffSessions(json, session({ blocks: [cite({ url: 'u' })] })).rows[0]?.status).toBe('changed');
  });

  it('compares images of a multimodal tool result', () => {
    const image = [{ src: '/agent/x/images/1', mediaType: 'image/png' }];
    expect(
      diffSessions(
        session({ blocks: [result('t', 'chart', 'ok', image)] }),
        session({ dialect: 'xml', blocks: [result('t', 'chart', 'ok', image)] }),
      ).rows[0]?.status,
    ).toBe('equal');
    const diff = diffSessions(
      session({ blocks: [result('t', 'chart', 'ok', image)] }),
      session({ blocks: [result('t', 'chart', 'ok')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', reason: 'images differ' });
  });
});

describe('diffSessions: two runs of one scenario', () => {
  // The second run of the same script: the server gave its agents new uuids.
  const RUN2 = { root: 'cccccccc-0000-4000-8000-000000000000', child: 'dddddddd-0000-4000-8000-000000000000' };
  const metaInit = (agent: string, parent: string | null): BlockSpec => ({
    kind: 'meta_init',
    agent,
    content: spaced({ agent_uuid: agent, parent_agent_uuid: parent, model: 'm', user_query: 'q' }),
  });
  const spawnResult = (child: string): BlockSpec => ({
    ...result('t_spawn', 'spawn_agent', `[Subagent 'calc' completed]\nAgent UUID: ${child}\n\n42`),
    agent: ROOT,
  });
  const run = (root: string, child: string, extra: BlockSpec[] = []): DiffInput =>
    session({
      blocks: [
        metaInit(root, null),
        { ...call('t_spawn', 'spawn_agent', '{"task": "add"}'), agent: root },
        metaInit(child, root),
        text('42', child),
        { ...spawnResult(child), agent: root },
        ...extra,
      ],
      parents: { [child]: root },
    });
  const history = (signature: string, thinking = 'Let me think.'): BlockSpec => ({
    kind: 'meta_final',
    content: spaced({
      stop_reason: 'end_turn',
      conversation_history: [
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking, signature },
            { type: 'text', text: 'done' },
          ],
        },
      ],
    }),
  });

  it("reads the left run's agent uuids as the paired right agents' inside block contents", () => {
    const diff = diffSessions(run(ROOT, CHILD), run(RUN2.root, RUN2.child));
    expect(diff.agents.map((p) => p.by)).toEqual(['structure', 'structure']);
    expect(brief(diff.rows)).toEqual([
      'equal meta_init {run-agent-uuids}',
      'equal tool_call',
      'equal tool_result {run-agent-uuids}',
      'equal meta_init {run-agent-uuids}',
      'equal text',
    ]);
    expect(diff.counts).toMatchObject({ differences: 0, normalised: 3 });
    expect(diff.rows[0]?.reason).toBe('equal after normalising per-run agent uuids');
    // The left block as compared carries the right run's uuids; the editor shows no difference.
    expect(diff.rows[2]?.left?.text).toContain(`Agent UUID: ${RUN2.child}`);
    expect(diff.rows[3]?.left?.text).toBe(diff.rows[3]?.right?.text);
  });

  it('still reports what differs besides the uuids', () => {
    const right = run(RUN2.root, RUN2.child);
    const childMeta = right.blocks.find((b) => b.kind === 'meta_init' && b.agent === RUN2.child);
    if (!childMeta) throw new Error('no child meta_init');
    childMeta.content = childMeta.content.replace('"m"', '"other-model"');
    childMeta.parsed = JSON.parse(childMeta.content) as unknown;
    const diff = diffSessions(run(ROOT, CHILD), right);
    expect(diff.rows[3]).toMatchObject({ status: 'changed', kind: 'meta_init', reason: 'content differs' });
    expect(diff.counts.differences).toBe(1);
  });

  it('puts no uuid of the other run into a block present on one side only', () => {
    const diff = diffSessions(
      run(ROOT, CHILD, [{ ...text(`bye from ${CHILD}`), agent: ROOT }]),
      run(RUN2.root, RUN2.child),
    );
    expect(diff.rows.find((r) => r.status !== 'equal')).toMatchObject({
      status: 'only-left',
      left: { text: `bye from ${CHILD}` },
      normalisations: [],
    });
  });

  it('substitutes nothing when the sides are one run (an agent uuid on both sides)', () => {
    // The same root: a child uuid that differs is a real difference, not a new run.
    const diff = diffSessions(run(ROOT, CHILD), run(ROOT, RUN2.child));
    expect(diff.agents[0]).toMatchObject({ by: 'uuid' });
    const changed = diff.rows.filter((r) => r.status === 'changed').map((r) => r.kind);
    expect(changed).toEqual(['tool_result', 'meta_init']);
    expect(diff.rows.flatMap((r) => r.normalisations)).not.toContain('run-agent-uuids');
  });

  it('leaves thinking signatures out of the history of two runs, and only the signatures', () => {
    const diff = diffSessions(
      session({ blocks: [history('sig-run-1')] }),
      session({ blocks: [{ ...history('sig-run-2'), agent: RUN2.root }] }),
    );
    expect(diff.rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['thinking-signature'],
      reason: 'equal after normalising thinking signatures',
    });
    expect(diff.rows[0]?.left?.text).not.toContain('sig-run-1');
    const otherThinking = diffSessions(
      session({ blocks: [history('sig-run-1')] }),
      session({ blocks: [{ ...history('sig-run-2', 'Let me rethink.'), agent: RUN2.root }] }),
    );
    expect(otherThinking.rows[0]).toMatchObject({ status: 'changed', reason: 'content differs' });
  });

  it('compares thinking signatures within one run: there they must be the same', () => {
    const diff = diffSessions(
      session({ blocks: [history('sig-a')] }),
      session({ dialect: 'xml', blocks: [history('sig-b')] }),
    );
    expect(diff.rows[0]).toMatchObject({ status: 'changed', normalisations: [] });
  });
});

describe('diffSessions: the agent_base server generation', () => {
  const agentBaseMeta = (kind: string, fields: Record<string, unknown>): BlockSpec => ({
    kind,
    content: JSON.stringify({ ...fields, conversation_log: { agents: {}, entries: [] } }),
  });

  it('does not compare message_history with conversation_log', () => {
    const legacy = session({
      blocks: [
        {
          kind: 'meta_init',
          content: spaced({ format: 'json', user_query: 'q', message_history: [{ role: 'user' }] }),
        },
      ],
    });
    const agentBase = session({ blocks: [agentBaseMeta('meta_init', { format: 'json', user_query: 'q' })] });
    const diff = diffSessions(legacy, agentBase);
    expect(diff.right.generation).toBe('agent_base');
    expect(diff.rows[0]).toMatchObject({ status: 'equal', normalisations: ['json-value', 'history-key'] });
  });

  it('compares only the shared meta_final fields across generations', () => {
    const legacy = session({
      blocks: [
        {
          kind: 'meta_final',
          content: spaced({
            conversation_history: [],
            stop_reason: 'end_turn',
            total_steps: 2,
            cost: { total_cost: 1 },
            cumulative_usage: { input_tokens: 5, output_tokens: 6, cache_read_input_tokens: 0 },
          }),
        },
      ],
    });
    const agentBase = (steps: number): DiffInput =>
      session({
        blocks: [
          agentBaseMeta('meta_final', {
            stop_reason: 'end_turn',
            total_steps: steps,
            cost: null,
            cumulative_usage: { input_tokens: 5, output_tokens: 6, thinking_tokens: null },
          }),
        ],
      });
    expect(diffSessions(legacy, agentBase(2)).rows[0]).toMatchObject({
      status: 'equal',
      normalisations: ['json-value', 'history-key', 'meta-final-generation'],
    });
    expect(diffSessions(legacy, agentBase(3)).rows[0]?.status).toBe('changed');
  });

  it('unwraps the {"tools": […]} awaiting payload', () => {
    const tools = [{ tool_use_id: 't', name: 'user_confirm', input: { message: 'ok?' } }];
    const diff = diffSessions(
      session({ blocks: [{ kind: 'awaiting_frontend_tools', content: JSON.stringify(tools) }] }),
      session({ blocks: [{ kind: 'awaiting_frontend_tools', content: JSON.stringify({ tools }) }] }),
    );
    expect(diff.right.generation).toBe('agent_base');
    expect(diff.rows[0]).toMatchObject({ status: 'equal', normalisations: ['awaiting-tools-object'] });
  });

  it('accepts the missing images of a flattened multimodal result, and nothing else missing', () => {
    const image = [{ src: '/agent/x/images/1', mediaType: 'image/png' }];
    const agentBase = (content: string): DiffInput =>
      session({ blocks: [{ ...result('t', 'chart', content), extras: { envelope_log: '{}' } }] });
    expect(
      diffSessions(session({ blocks: [result('t', 'chart', 'ok', image)] }), agentBase('ok')).rows[0],
    ).toMatchObject({ status: 'equal', normalisations: ['tool-result-images'] });
    expect(
      diffSessions(session({ blocks: [result('t', 'chart', 'ok', image)] }), agentBase('ok!')).rows[0]?.status,
    ).toBe('changed');
  });

  it('explains the meta_init agent_base repeats on a continuation, and the frontend tool_result it omits', () => {
    const legacyResume = session({ blocks: [result('front', 'user_confirm', 'yes'), text('Saved.')] });
    const agentBaseResume = session({ blocks: [agentBaseMeta('meta_init', { format: 'json' }), text('Saved.')] });
    const diff = diffSessions(legacyResume, agentBaseResume);
    expect(brief(diff.rows)).toEqual([
      'only-left tool_result [resume-frontend-tool-result]',
      'only-right meta_init [resume-meta-init]',
      'equal text',
    ]);
    expect(diff.counts).toMatchObject({ inherent: 2, differences: 0 });
  });

  it('does not excuse a missing tool_result whose call is in the session', () => {
    const legacy = session({ blocks: [call('t', 'add', '{}'), result('t', 'add', '1')] });
    const agentBase = session({
      blocks: [call('t', 'add', '{}'), agentBaseMeta('meta_final', { stop_reason: 'end_turn' })],
    });
    const diff = diffSessions(legacy, agentBase);
    const missing = diff.rows.find((r) => r.kind === 'tool_result');
    expect(missing).toMatchObject({ status: 'only-left' });
    expect(missing?.inherent).toBeUndefined();
  });

  it('explains the meta_files block agent_base does not send', () => {
    const legacy = session({ blocks: [text('x'), { kind: 'meta_files', content: '{"files": []}' }] });
    const agentBase = session({ blocks: [text('x'), agentBaseMeta('meta_final', { stop_reason: 'end_turn' })] });
    expect(brief(diffSessions(legacy, agentBase).rows)).toContain('only-left meta_files [agent-base-no-meta-files]');
  });
});

describe('diffSessions: xml text after a raw CR', () => {
  it('explains xml text that lost the rest of each delta after a CR', () => {
    const json = session({ blocks: [{ kind: 'text', content: 'one\r\ntwo three', deltas: ['one\r\ntwo', ' three'] }] });
    const xml = session({
      dialect: 'xml',
      blocks: [{ kind: 'text', content: 'one three', deltas: ['one', ' three'] }],
    });
    const diff = diffSessions(json, xml);
    expect(diff.rows[0]).toMatchObject({ status: 'changed', inherent: 'xml-unescaped-cr' });
    expect(diff.counts.differences).toBe(0);
  });

  it('does not excuse xml text that differs in another way', () => {
    const json = session({ blocks: [{ kind: 'text', content: 'one\r\ntwo three', deltas: ['one\r\ntwo', ' three'] }] });
    const xml = session({ dialect: 'xml', blocks: [{ kind: 'text', content: 'one thre', deltas: ['one', ' thre'] }] });
    expect(diffSessions(json, xml).rows[0]?.inherent).toBeUndefined();
  });
});

describe('diffSessions: envelope-level differences', () => {
  it('reports chunking, envelope counts and extras apart from the (equal) blocks', () => {
    const args = '{"a": "long"}';
    const left = session({ blocks: [{ ...call('t', 'add', args), deltas: ['{"a": ', '"long"}'] }], frames: true });
    const right = session({ blocks: [{ ...call('t', 'add', args), extras: { envelope_log: '{}' } }], frames: true });
    const diff = diffSessions(left, right);
    expect(diff.rows[0]?.status).toBe('equal');
    const aspects = diff.envelopes.differences.map((d) => `${d.type} ${d.aspect} ${d.left} ${d.right}`);
    expect(aspects).toContain('tool_call envelopes 2 1');
    expect(aspects).toContain('tool_call chunking 1 (2) 0 (1)');
    expect(aspects).toContain('tool_call extras id, name envelope_log, id, name');
    expect(diff.envelopes.left[0]?.['tool_call']).toMatchObject({
      envelopes: 2,
      blocks: 1,
      chunkedBlocks: 1,
      maxEnvelopesPerBlock: 2,
    });
    expect(diff.envelopes.totals.left.envelopes).toBe(2);
  });

  it('counts escapes on the wire when frames are given, and not otherwise', () => {
    const blocks = [text('say "hi"\n')];
    const withFrames = diffSessions(
      session({ blocks, frames: true }),
      session({ blocks: [text('plain')], frames: true }),
    );
    expect(withFrames.envelopes.left[0]?.['text']?.escapes).toBe(3);
    expect(withFrames.envelopes.right[0]?.['text']?.escapes).toBe(0);
    const without = diffSessions(session({ blocks }), session({ blocks }));
    expect(without.envelopes.left[0]?.['text']?.escapes).toBeNull();
    expect(without.envelopes.differences).toEqual([]);
  });
});

describe('diffTranscript', () => {
  it('gives one text per side in alignment order, with one-sided blocks on their side only', () => {
    const left = session({ blocks: [text('A'), call('t1', 'add', '{"a": 1}')] });
    const right = session({ blocks: [text('A'), { kind: 'thinking', content: 'hmm' }, call('t1', 'add', '{"a":1}')] });
    const { left: l, right: r } = diffTranscript(diffSessions(left, right));
    expect(l).toBe('── text (agent 1)\nA\n\n── tool_call add t1 (agent 1)\n{\n  "a": 1\n}\n');
    expect(r).toBe(
      '── text (agent 1)\nA\n\n── thinking (agent 1)\nhmm\n\n── tool_call add t1 (agent 1)\n{\n  "a": 1\n}\n',
    );
  });

  it('gives identical texts for sessions that differ only by normalised formatting', () => {
    const left = session({ blocks: [{ kind: 'meta_init', content: '{"format": "json", "model": "m"}' }, text('A')] });
    const right = session({
      dialect: 'xml',
      blocks: [{ kind: 'meta_init', content: '{"format":"xml","model":"m"}' }, text('A')],
    });
    const t = diffTranscript(diffSessions(left, right));
    expect(t.left).toBe(t.right);
  });
});
