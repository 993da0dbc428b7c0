import { describe, expect, it } from 'vitest';
import type { Block } from './types';
import { A, B, session, tool } from './reconstructor-harness';

describe('reconstruction per (agent, type)', () => {
  it('appends text deltas in arrival order and closes on the final marker', () => {
    const s = session();
    s.text(['Hel', 'lo', ' world']);
    s.r.end();
    expect(s.blocks()).toHaveLength(1);
    expect(s.blocks()[0]).toMatchObject({
      kind: 'text',
      status: 'complete',
      content: 'Hello world',
      envelopes: [0, 1, 2, 3],
      leg: 0,
      byteStart: 0,
    });
    expect(s.blocks()[0]?.byteEnd).toBe(4 * 40 + 'Hello world'.length);
    expect(s.diagnostics).toEqual([]);
  });

  it('opens the next block of a type after a final', () => {
    const s = session();
    s.text(['one']);
    s.text(['two']);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['one', 'two']);
  });

  it('keeps interleaved agents apart', () => {
    const s = session();
    s.push('text', 'A1', { agent: A });
    s.push('text', 'B1', { agent: B });
    s.push('thinking', 'Bt', { agent: B });
    s.push('text', 'A2', { agent: A });
    s.final('text', '', { agent: B });
    s.final('text', '', { agent: A });
    s.final('thinking', '', { agent: B });
    expect(s.blocks().map((b) => [b.agent, b.kind, b.content, b.status])).toEqual([
      [A, 'text', 'A1A2', 'complete'],
      [B, 'text', 'B1', 'complete'],
      [B, 'thinking', 'Bt', 'complete'],
    ]);
  });

  it('closes a buffered payload with the content of its final chunk and parses it', () => {
    const s = session();
    s.push('tool_call', '{"a": ', tool('t1', 'add'));
    s.final('tool_call', '1}', tool('t1', 'add'));
    expect(s.blocks()[0]).toMatchObject({
      kind: 'tool_call',
      status: 'complete',
      content: '{"a": 1}',
      parsed: { a: 1 },
      toolId: 't1',
      name: 'add',
    });
  });

  it('keeps a parsed payload as its text only: each read of parsed is a fresh equal value, and assigning it stores the value', () => {
    const s = session();
    s.final('tool_call', '{"a": [1, 2]}', tool('t1', 'add'));
    const block = s.blocks()[0] as Block;
    const first = block.parsed;
    expect(first).toEqual({ a: [1, 2] });
    expect(block.parsed).not.toBe(first);
    expect(Object.keys(block)).toContain('parsed');
    expect(structuredClone(block).parsed).toEqual({ a: [1, 2] });
    block.parsed = { replaced: true };
    expect(block.parsed).toEqual({ replaced: true });
  });

  it('calls onBlock when a block opens and on every change', () => {
    const s = session();
    s.text(['a', 'b']);
    expect(s.blockEvents).toEqual([
      { id: 0, status: 'open', content: 'a' },
      { id: 0, status: 'open', content: 'ab' },
      { id: 0, status: 'complete', content: 'ab' },
    ]);
  });

  it('gives an empty streamed block (final marker only) as an empty complete block', () => {
    const s = session();
    s.final('text');
    expect(s.blocks()[0]).toMatchObject({ kind: 'text', status: 'complete', content: '' });
  });

  it('keeps unknown types as buffered blocks', () => {
    const s = session();
    s.final('custom_hook_event', 'payload');
    expect(s.blocks()[0]).toMatchObject({ kind: 'custom_hook_event', status: 'complete', content: 'payload' });
    expect(s.blocks()[0]?.parsed).toBeUndefined();
  });

  it('does not continue a block left open by an earlier leg', () => {
    const s = session();
    s.push('text', 'cut off');
    s.newLeg();
    s.text(['fresh']);
    s.r.end();
    expect(s.kinds('text').map((b) => [b.leg, b.status, b.content])).toEqual([
      [0, 'open', 'cut off'],
      [1, 'complete', 'fresh'],
    ]);
    expect(s.count('block.unterminated')).toBe(1);
  });
});

describe('control envelopes', () => {
  it('shows an error frame as a complete error_frame block', () => {
    const s = session();
    s.push('error_frame', 'Overloaded', {
      final: true,
      control: 'error-frame',
      extras: { error: 'APIStatusError', traceback: 'Traceback …' },
    });
    expect(s.blocks()[0]).toMatchObject({
      kind: 'error_frame',
      status: 'complete',
      content: 'Overloaded',
      parsed: { error: 'APIStatusError', traceback: 'Traceback …', message: 'Overloaded' },
    });
    expect(s.r.agents()).toEqual([]);
  });

  it('opens an empty live block on block-open, which the deltas then fill', () => {
    const s = session();
    s.push('text', '', { control: 'block-open' });
    expect(s.blockEvents).toEqual([{ id: 0, status: 'open', content: '' }]);
    s.text(['hi']);
    expect(s.blocks()).toHaveLength(1);
    expect(s.blocks()[0]).toMatchObject({ status: 'complete', content: 'hi', envelopes: [0, 1, 2] });
  });

  it('ignores [DONE], provider events and undecoded items', () => {
    const s = session();
    s.push('[DONE]', '', { final: true, control: 'done' });
    s.push('message_start', '', { control: 'provider-event' });
    s.push('undecoded', 'garbage', { final: true, control: 'undecoded' });
    s.r.end();
    expect(s.blocks()).toEqual([]);
    expect(s.r.agents()).toEqual([]);
    expect(s.diagnostics).toEqual([]);
  });
});

describe('agents', () => {
  const metaInit = (agent: string, parent: string | null) =>
    JSON.stringify({
      format: 'json',
      user_query: 'q',
      agent_uuid: agent,
      parent_agent_uuid: parent,
      model: 'claude-sonnet-4-5',
    });

  it('links sub-agents to their parent through meta_init and reports each agent when seen and when its meta_init completes', () => {
    const s = session();
    s.final('meta_init', metaInit(A, null), { agent: A });
    s.push('meta_init', metaInit(B, A).slice(0, 20), { agent: B });
    s.final('meta_init', metaInit(B, A).slice(20), { agent: B });
    expect(s.r.agents()).toEqual([
      {
        uuid: A,
        parent: null,
        model: 'claude-sonnet-4-5',
        format: 'json',
        userQuery: 'q',
        metaInitEnvelope: 0,
        firstEnvelope: 0,
      },
      {
        uuid: B,
        parent: A,
        model: 'claude-sonnet-4-5',
        format: 'json',
        userQuery: 'q',
        metaInitEnvelope: 1,
        firstEnvelope: 1,
      },
    ]);
    expect(s.agentEvents.map((a) => [a.uuid, a.parent, a.model])).toEqual([
      [A, null, undefined],
      [A, null, 'claude-sonnet-4-5'],
      [B, null, undefined],
      [B, A, 'claude-sonnet-4-5'],
    ]);
    expect(s.r.rootAgent()).toBe(A);
  });

  it('reports an agent announced again only when the announcement changes something', () => {
    const s = session();
    s.final('meta_init', metaInit(A, null), { agent: A });
    s.final('meta_init', metaInit(A, null), { agent: A });
    expect(s.agentEvents).toHaveLength(2);
    s.final(
      'meta_init',
      JSON.stringify({
        format: 'json',
        user_query: 'q2',
        agent_uuid: A,
        parent_agent_uuid: null,
        model: 'claude-sonnet-4-5',
      }),
      { agent: A },
    );
    expect(s.agentEvents.map((a) => a.userQuery)).toEqual([undefined, 'q', 'q2']);
  });

  it('takes a one-envelope payload as its dialect parsed it, and parses a reassembled one itself', () => {
    const s = session();
    // The handed-on value differs from the delta only to show which one was read.
    const handedOn = { ...(JSON.parse(metaInit(A, null)) as object), model: 'as parsed by the dialect' };
    s.final('meta_init', metaInit(A, null), { agent: A, payload: handedOn });
    s.push('meta_init', metaInit(B, A).slice(0, 20), { agent: B });
    s.final('meta_init', metaInit(B, A).slice(20), { agent: B, payload: handedOn });
    expect(s.r.agents().map((a) => [a.uuid, a.parent, a.model])).toEqual([
      [A, null, 'as parsed by the dialect'],
      [B, A, 'claude-sonnet-4-5'],
    ]);
    expect(s.blocks().map((b) => b.parsed)).toEqual([JSON.parse(metaInit(A, null)), JSON.parse(metaInit(B, A))]);
  });

  it.each([['unknown'], [null]])('treats parent_agent_uuid %j as no parent', (parent) => {
    const s = session();
    s.final('meta_init', metaInit(B, parent), { agent: B });
    expect(s.r.agents()[0]?.parent).toBeNull();
    expect(s.r.rootAgent()).toBe(B);
  });

  it('has no root agent before any content and never picks the unattributed agent ""', () => {
    const s = session();
    expect(s.r.rootAgent()).toBeUndefined();
    s.text(['x'], '');
    expect(s.r.rootAgent()).toBeUndefined();
    s.text(['y'], A);
    expect(s.r.rootAgent()).toBe(A);
  });
});
