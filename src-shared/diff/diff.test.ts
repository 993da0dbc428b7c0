import { describe, expect, it } from 'vitest';
import { diffSessions } from './diff';
import { diffTranscript } from './transcript';
import { brief, call, CHILD, result, ROOT, session, text, type BlockSpec } from '../testing/diff-sessions';

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
  it('counts blocks of no agent apart: a provider stream is unattributed, not one agent more', () => {
    const unattributed: BlockSpec = { kind: 'text', content: 'hi', agent: '' };
    const diff = diffSessions(session({ blocks: [unattributed] }), session({ blocks: [text('hi', ROOT)] }));
    expect(diff.left).toMatchObject({ agents: 0, unattributed: true });
    expect(diff.right).toMatchObject({ agents: 1, unattributed: false });
    const mixed = diffSessions(session({ blocks: [text('a', ROOT), unattributed] }), session({ blocks: [text('a')] }));
    expect(mixed.left).toMatchObject({ agents: 1, unattributed: true });
  });

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
