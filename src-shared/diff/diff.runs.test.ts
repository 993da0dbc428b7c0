import { describe, expect, it } from 'vitest';
import { diffSessions } from './diff';
import type { DiffInput } from './types';
import { brief, call, CHILD, result, ROOT, session, spaced, text, type BlockSpec } from '../testing/diff-sessions';

/* Two runs of one scenario, and a run of the agent_base server generation against today's. */

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

  it('names no generation for a stream of anyone but the upstream agent, and explains nothing by one', () => {
    const meta = (fields: Record<string, unknown>) => [{ kind: 'meta_final', content: spaced(fields) }];
    const upstream = session({ blocks: meta({ stop_reason: 'end_turn', total_steps: 2, cost: { total_cost: 1 } }) });
    for (const dialect of ['openai-chat', 'anthropic-messages', 'json-events'] as const) {
      const provider = session({ dialect, blocks: meta({ stop_reason: 'end_turn', total_steps: 2, cost: null }) });
      const diff = diffSessions(upstream, provider);
      expect(diff.left.generation).toBe('legacy');
      expect(diff.right.generation).toBeUndefined();
      // Were the provider side taken for the other generation, `cost` would not be compared.
      expect(diff.rows[0]).toMatchObject({ status: 'changed' });
      expect(diff.rows[0]?.normalisations).not.toContain('meta-final-generation');
    }
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
