import { describe, expect, it } from 'vitest';
import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticInit } from '../diagnostics/types';
import type { ControlKind, Envelope } from '../envelope/types';
import { createReconstructor, MAX_BLOCK_CHARS, type ReconstructorOptions } from './reconstructor';
import { HELD_IDLE_AGENTS } from './retention';
import type { AgentInfo, Block } from './types';

const A = 'aaaaaaaa-0000-4000-8000-000000000000';
const B = 'bbbbbbbb-0000-4000-8000-000000000000';

interface EnvOptions {
  final?: boolean;
  agent?: string;
  extras?: Record<string, unknown>;
  control?: ControlKind;
  /** The delta as its dialect parsed it (handed on with the envelope). */
  payload?: unknown;
}

/**
 * A hand-made session: envelopes get consecutive seqs, one frame each, and byte offsets that
 * restart in every leg (as the wire's do).
 */
function session(options: ReconstructorOptions = {}) {
  const diagnostics: DiagnosticInit[] = [];
  const blockEvents: { id: number; status: Block['status']; content: string }[] = [];
  const agentEvents: AgentInfo[] = [];
  const r = createReconstructor(
    {
      onBlock: (b) => blockEvents.push({ id: b.id, status: b.status, content: b.content }),
      onAgent: (a) => agentEvents.push({ ...a }),
      onDiagnostic: (d) => diagnostics.push(d),
    },
    options,
  );
  let seq = 0;
  let leg = 0;
  let frame = 0;
  let offset = 0;
  const push = (type: string, delta = '', o: EnvOptions = {}): Envelope => {
    const size = 40 + delta.length;
    const envelope: Envelope = {
      seq: seq++,
      frame: frame++,
      leg,
      dialect: 'json',
      agent: o.agent ?? A,
      type,
      final: o.final ?? false,
      delta,
      extras: o.extras ?? {},
      byteStart: offset,
      byteEnd: offset + size,
      receivedAt: 0,
      ...(o.control ? { control: o.control } : {}),
    };
    offset += size;
    r.push(envelope, o.payload);
    return envelope;
  };
  return {
    r,
    push,
    final: (type: string, delta = '', o: EnvOptions = {}) => push(type, delta, { ...o, final: true }),
    /** Streamed text: one envelope per delta, then the empty final marker. */
    text: (deltas: string[], agent = A) => {
      for (const d of deltas) push('text', d, { agent });
      return push('text', '', { agent, final: true });
    },
    newLeg: () => {
      leg++;
      frame = 0;
      offset = 0;
    },
    diagnostics,
    blockEvents,
    agentEvents,
    rules: () => diagnostics.map((d) => d.rule),
    count: (rule: RuleId) => diagnostics.filter((d) => d.rule === rule).length,
    blocks: () => r.blocks(),
    kinds: (kind: string) => r.blocks().filter((b) => b.kind === kind),
  };
}

const tool = (id: string, name: string) => ({ extras: { id, name } });

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

describe('citations', () => {
  const legacy = {
    citation_type: 'char_location',
    document_index: 0,
    document_title: 'Doc',
    start_char_index: 0,
    end_char_index: 5,
  };

  it('attaches legacy and agent_base citations to the latest text block of that agent, normalised alike', () => {
    const s = session();
    s.text(['Hello']);
    s.push('citation', 'Hello', { extras: legacy });
    s.final('citation', JSON.stringify({ cited_text: 'Hello', ...legacy }));
    const text = s.kinds('text')[0];
    expect(text?.citations).toEqual([
      {
        citationType: 'char_location',
        citedText: 'Hello',
        fields: { document_index: 0, document_title: 'Doc', start_char_index: 0, end_char_index: 5 },
        envelope: 2,
      },
      {
        citationType: 'char_location',
        citedText: 'Hello',
        fields: { document_index: 0, document_title: 'Doc', start_char_index: 0, end_char_index: 5 },
        envelope: 3,
      },
    ]);
    expect(text?.envelopes).toEqual([0, 1, 2, 3]);
    expect(s.blocks()).toHaveLength(1);
  });

  it("does not attach a citation to another agent's text", () => {
    const s = session();
    s.text(['mine'], B);
    s.final('citation', 'x', { extras: legacy, agent: A });
    expect(s.count('citation.orphan')).toBe(1);
    expect(s.kinds('text')[0]?.citations).toEqual([]);
  });

  it('citation.orphan: a citation before any text block of the agent becomes its own block', () => {
    const s = session();
    s.final('citation', 'cited', { extras: legacy });
    expect(s.rules()).toEqual(['citation.orphan']);
    expect(s.blocks()[0]).toMatchObject({ kind: 'citation', status: 'complete', content: 'cited' });
    expect(s.blocks()[0]?.citations).toHaveLength(1);
  });

  it('citation.orphan: not reported for a citation after a text block', () => {
    const s = session();
    s.text(['t']);
    s.final('citation', 'cited', { extras: legacy });
    expect(s.count('citation.orphan')).toBe(0);
  });

  it('reports an agent_base citation whose JSON delta does not parse and keeps the delta as cited text', () => {
    const s = session();
    s.text(['t']);
    s.final('citation', '{"cited_text": "x"');
    expect(s.rules()).toEqual(['envelope.payload-json']);
    expect(s.kinds('text')[0]?.citations[0]).toMatchObject({ citationType: '', citedText: '{"cited_text": "x"' });
  });
});

describe('tool results, images and links', () => {
  it('attaches tool_result_image to the open tool_result with the same id and keeps its envelope there', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'chart'));
    s.push('tool_result', 'Rendered', tool('t1', 'chart'));
    s.push('tool_result_image', '', { extras: { id: 't1', name: 'chart', src: '/img/1', media_type: 'image/png' } });
    s.final('tool_result', '', tool('t1', 'chart'));
    s.r.end();
    expect(s.blocks()).toHaveLength(2);
    expect(s.blocks()[1]).toMatchObject({
      kind: 'tool_result',
      status: 'complete',
      content: 'Rendered',
      images: [{ src: '/img/1', mediaType: 'image/png', envelope: 2 }],
      envelopes: [1, 2, 3],
    });
    expect(s.diagnostics).toEqual([]);
  });

  it('tool-result-image.orphan: an image with no open tool_result becomes its own complete block', () => {
    const s = session();
    s.push('tool_result_image', '', { extras: { id: 't1', src: '/img/1', media_type: 'image/png' } });
    s.r.end();
    expect(s.rules()).toEqual(['tool-result-image.orphan']);
    expect(s.blocks()[0]).toMatchObject({
      kind: 'tool_result_image',
      status: 'complete',
      toolId: 't1',
      images: [{ src: '/img/1' }],
    });
  });

  it('tool-result-image.orphan: an image for another id than the open tool_result', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'chart'));
    s.push('tool_result', 'x', tool('t1', 'chart'));
    s.push('tool_result_image', '', { extras: { id: 't2', src: '/img/2', media_type: 'image/png' } });
    expect(s.rules()).toEqual(['tool-result-image.orphan']);
    expect(s.kinds('tool_result')[0]?.images).toEqual([]);
  });

  it('links a tool call and its result both ways', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'add'));
    s.final('tool_result', '3', tool('t1', 'add'));
    s.r.end();
    const [call, result] = s.blocks();
    expect(call?.linkedBlock).toBe(result?.id);
    expect(result?.linkedBlock).toBe(call?.id);
    expect(s.diagnostics).toEqual([]);
  });

  it('links a server tool call to its server_tool_result', () => {
    const s = session();
    s.final('server_tool_call', '{}', tool('srvtoolu_1', 'code_execution'));
    s.final('server_tool_result', '"repr"', tool('srvtoolu_1', 'bash_code_execution_tool_result'));
    expect(s.blocks()[0]?.linkedBlock).toBe(1);
  });

  it('links a call to a result that arrives in a later leg', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'user_confirm'));
    s.final('awaiting_frontend_tools', '[{"tool_use_id": "t1", "name": "user_confirm", "input": {}}]');
    s.newLeg();
    s.final('tool_result', 'yes', tool('t1', 'user_confirm'));
    s.r.end();
    expect(s.blocks()[0]?.linkedBlock).toBe(2);
    expect(s.blocks()[2]).toMatchObject({ leg: 1, linkedBlock: 0 });
    expect(s.diagnostics).toEqual([]);
  });

  it('tool.result-without-call: a result whose id no call had', () => {
    const s = session();
    s.final('tool_result', 'x', tool('t9', 'add'));
    expect(s.rules()).toEqual(['tool.result-without-call']);
    expect(s.blocks()[0]?.linkedBlock).toBeUndefined();
  });

  it('tool.call-without-result: reported at end() only, not while the stream runs', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'add'));
    expect(s.diagnostics).toEqual([]);
    s.r.end();
    expect(s.rules()).toEqual(['tool.call-without-result']);
  });

  it('tool.call-without-result: a pending frontend tool no continuation answered says so', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'user_confirm'));
    s.final('awaiting_frontend_tools', '{"tools":[{"tool_use_id":"t1","name":"user_confirm","input":{}}]}');
    s.r.end();
    expect(s.rules()).toEqual(['tool.call-without-result']);
    expect(s.diagnostics[0]?.message).toContain('awaiting_frontend_tools');
  });

  it('tool.call-without-result: not reported for a pending frontend tool once a continuation ran (agent_base streams no result for it)', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'user_confirm'));
    s.final('awaiting_frontend_tools', '{"tools":[{"tool_use_id":"t1","name":"user_confirm","input":{}}]}');
    s.newLeg();
    s.text(['Confirmed.']);
    s.r.end();
    expect(s.diagnostics).toEqual([]);
  });

  it('tool.call-without-result: still reported when the continuation only brought an error frame', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'user_confirm'));
    s.final('awaiting_frontend_tools', '[{"tool_use_id": "t1", "name": "user_confirm", "input": {}}]');
    s.newLeg();
    s.push('error_frame', 'Tool result mismatch', { final: true, control: 'error-frame' });
    s.r.end();
    expect(s.rules()).toEqual(['tool.call-without-result']);
  });

  it('reports nothing twice when end() is called again', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'add'));
    s.r.end();
    s.r.end();
    expect(s.count('tool.call-without-result')).toBe(1);
  });
});

describe('awaiting_frontend_tools', () => {
  const pending = [{ toolUseId: 't1', name: 'user_confirm', input: { message: 'ok?' } }];

  it('reads the legacy array', () => {
    const s = session();
    s.final('awaiting_frontend_tools', '[{"tool_use_id": "t1", "name": "user_confirm", "input": {"message": "ok?"}}]');
    expect(s.blocks()[0]?.pendingTools).toEqual(pending);
  });

  it('reads the agent_base object', () => {
    const s = session();
    s.final(
      'awaiting_frontend_tools',
      '{"tools":[{"tool_use_id":"t1","name":"user_confirm","input":{"message":"ok?"}}]}',
    );
    expect(s.blocks()[0]?.pendingTools).toEqual(pending);
  });

  it('reassembles a chunked payload before reading it', () => {
    const s = session();
    const payload = '[{"tool_use_id": "t1", "name": "user_confirm", "input": {"message": "ok?"}}]';
    s.push('awaiting_frontend_tools', payload.slice(0, 10));
    expect(s.blocks()[0]?.pendingTools).toBeUndefined();
    s.push('awaiting_frontend_tools', payload.slice(10, 30));
    s.final('awaiting_frontend_tools', payload.slice(30));
    expect(s.blocks()).toHaveLength(1);
    expect(s.blocks()[0]?.pendingTools).toEqual(pending);
    expect(s.diagnostics).toEqual([]);
  });

  it('reports a payload that parses but has the wrong shape', () => {
    const s = session();
    s.final('awaiting_frontend_tools', '{"pending": []}');
    expect(s.rules()).toEqual(['envelope.payload-json']);
    expect(s.blocks()[0]?.parseError).toContain('tools');
    expect(s.blocks()[0]?.pendingTools).toBeUndefined();
  });
});

describe('envelope.payload-json', () => {
  it('triggers when a reassembled JSON payload does not parse, and keeps the content', () => {
    const s = session();
    s.push('meta_final', '{"stop_reason": ', {});
    s.final('meta_final', '"end_turn"');
    expect(s.rules()).toEqual(['envelope.payload-json']);
    expect(s.blocks()[0]).toMatchObject({ status: 'complete', content: '{"stop_reason": "end_turn"' });
    expect(s.blocks()[0]?.parseError).toBeTruthy();
    expect(s.blocks()[0]?.parsed).toBeUndefined();
  });

  it('is not reported for a payload that parses once complete, however it was split', () => {
    const s = session();
    s.push('meta_files', '{"files": [');
    s.final('meta_files', ']}');
    expect(s.diagnostics).toEqual([]);
    expect(s.blocks()[0]?.parsed).toEqual({ files: [] });
  });

  it('does not parse tool results, which may be plain text', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'x'));
    s.final('tool_result', 'not json', tool('t1', 'x'));
    expect(s.diagnostics).toEqual([]);
  });
});

describe('block.id-changed', () => {
  it('triggers when a chunk with another id arrives for an open payload; the new id starts a new block', () => {
    const s = session();
    s.push('tool_call', '{"a":', tool('t1', 'add'));
    s.final('tool_call', '{"b": 2}', tool('t2', 'mul'));
    s.r.end();
    expect(s.rules()).toContain('block.id-changed');
    expect(s.kinds('tool_call').map((b) => [b.toolId, b.status, b.content])).toEqual([
      ['t1', 'open', '{"a":'],
      ['t2', 'complete', '{"b": 2}'],
    ]);
    expect(s.count('block.unterminated')).toBe(1);
  });

  it('triggers when the name changes inside one payload, which is still appended', () => {
    const s = session();
    s.push('tool_call', '{"a":', tool('t1', 'add'));
    s.final('tool_call', ' 1}', tool('t1', 'plus'));
    expect(s.rules()).toEqual(['block.id-changed']);
    expect(s.blocks()[0]).toMatchObject({ name: 'add', content: '{"a": 1}', status: 'complete' });
  });

  it('is not reported for chunks that repeat the same id and name', () => {
    const s = session();
    s.push('tool_call', '{"a":', tool('t1', 'add'));
    s.final('tool_call', ' 1}', tool('t1', 'add'));
    expect(s.diagnostics).toEqual([]);
  });
});

describe('block.final-with-content', () => {
  it('triggers when the final marker of a streamed block carries content, which is appended', () => {
    const s = session();
    s.push('text', 'Hello');
    s.final('text', ' world');
    expect(s.rules()).toEqual(['block.final-with-content']);
    expect(s.blocks()[0]).toMatchObject({ status: 'complete', content: 'Hello world' });
  });

  it('is not reported for buffered payloads, whose final chunk carries content by design', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'x'));
    s.final('meta_final', '{}');
    expect(s.count('block.final-with-content')).toBe(0);
  });
});

describe('block.content-after-final', () => {
  it('triggers when a chunk continues the id of the payload that just completed; it becomes a new block', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'x'));
    s.final('tool_result', 'part one', tool('t1', 'x'));
    s.final('tool_result', 'part two', tool('t1', 'x'));
    expect(s.rules()).toEqual(['block.content-after-final']);
    expect(s.kinds('tool_result').map((b) => b.content)).toEqual(['part one', 'part two']);
  });

  it('is not reported for the next payload with another id, nor for the next streamed block', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'x'));
    s.final('tool_call', '{}', tool('t2', 'x'));
    s.text(['a']);
    s.text(['b']);
    expect(s.count('block.content-after-final')).toBe(0);
  });
});

describe('block.not-finalised', () => {
  it('a text block without its final envelope, a thinking block, then text again: flagged where the thinking began, and kept apart', () => {
    const s = session();
    s.push('text', 'First ');
    const thinking = s.push('thinking', 'hmm');
    s.final('thinking');
    s.push('text', 'Second');
    s.final('text');
    expect(s.blocks().map((b) => [b.kind, b.content, b.status])).toEqual([
      ['text', 'First ', 'complete'],
      ['thinking', 'hmm', 'complete'],
      ['text', 'Second', 'complete'],
    ]);
    expect(s.rules()).toEqual(['block.not-finalised']);
    expect(s.diagnostics[0]?.at).toMatchObject({ envelope: thinking.seq, frame: thinking.frame, block: 0 });
    expect(s.diagnostics[0]?.message).toBe(
      `text block #0 of agent ${A} got no final envelope before a thinking block began at envelope 1; it is closed there (6 characters), and the text that follows is a block of its own, not merged into it.`,
    );
  });

  it('the same after a tool call (any other block), and for thinking', () => {
    const s = session();
    s.push('thinking', 'plan');
    s.final('tool_call', '{}', tool('t1', 'f'));
    s.push('thinking', 'again');
    s.final('thinking');
    expect(s.kinds('thinking').map((b) => b.content)).toEqual(['plan', 'again']);
    expect(s.rules()).toEqual(['block.not-finalised']);
  });

  it('must not fire when the final envelope comes after the other block (one open block per agent and type), nor across agents', () => {
    const s = session();
    s.push('text', 'A1');
    s.push('thinking', 'T');
    s.final('text');
    s.final('thinking');
    s.push('text', 'B1', { agent: B });
    s.push('text', 'A2');
    s.final('text');
    s.final('text', '', { agent: B });
    expect(s.count('block.not-finalised')).toBe(0);
    expect(s.blocks().map((b) => b.content)).toEqual(['A1', 'T', 'B1', 'A2']);
  });
});

describe('block.unterminated', () => {
  it('triggers at end() for each block still open, which stays open', () => {
    const s = session();
    s.push('text', 'partial');
    s.push('tool_result', 'half', tool('t1', 'x'));
    expect(s.count('block.unterminated')).toBe(0);
    s.r.end();
    expect(s.count('block.unterminated')).toBe(2);
    expect(s.blocks().map((b) => b.status)).toEqual(['open', 'open']);
  });

  it('is not reported for closed blocks', () => {
    const s = session();
    s.text(['done']);
    s.r.end();
    expect(s.diagnostics).toEqual([]);
  });
});

describe('block.restarted', () => {
  const attempt = [
    'I nee',
    'd to calculate 5 + (10',
    ' * 2) following',
    ' the order of operations (multiplication first,',
  ];
  const full = [...attempt, ' then addition).', ' Done.'];

  it('triggers when the open block receives its own first deltas again: the first attempt is abandoned', () => {
    const s = session();
    for (const d of attempt) s.push('text', d);
    s.text(full);
    s.r.end();
    expect(s.rules()).toEqual(['block.restarted']);
    const texts = s.kinds('text');
    expect(texts.map((b) => [b.status, b.content])).toEqual([
      ['abandoned', attempt.join('')],
      ['complete', full.join('')],
    ]);
    expect(texts[0]).toMatchObject({ replacedBy: texts[1]?.id, envelopes: [0, 1, 2, 3], byteStart: 0 });
    expect(texts[1]).toMatchObject({ replaces: texts[0]?.id, envelopes: [4, 5, 6, 7, 8, 9, 10] });
    expect(texts[0]?.byteEnd).toBe(texts[1]?.byteStart);
  });

  it('attaches later citations to the replay, not the abandoned attempt', () => {
    const s = session();
    for (const d of attempt) s.push('text', d);
    s.text(full);
    s.final('citation', 'c', { extras: { citation_type: 'char_location' } });
    expect(s.kinds('text').map((b) => b.citations.length)).toEqual([0, 1]);
  });

  it('triggers for a one-delta attempt of at least 8 characters', () => {
    const s = session();
    s.push('text', 'I need to');
    s.text(['I need to', ' go.']);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['I need to', 'I need to go.']);
  });

  it('triggers when the final marker follows the replayed attempt at once', () => {
    const s = session();
    for (const d of attempt) s.push('text', d);
    s.text(attempt);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => [b.status, b.content])).toEqual([
      ['abandoned', attempt.join('')],
      ['complete', attempt.join('')],
    ]);
  });

  it('triggers when an explicit open (XML start tag) arrives while the block is open', () => {
    const s = session();
    s.push('text', '', { control: 'block-open' });
    s.push('text', 'partial');
    s.push('text', '', { control: 'block-open' });
    s.text(['whole']);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => [b.status, b.content])).toEqual([
      ['abandoned', 'partial'],
      ['complete', 'whole'],
    ]);
  });

  it('is not reported when a short first delta merely recurs later in the text', () => {
    const s = session();
    s.text(['.', ' and', '.', ' or', '.']);
    s.text(['The', ' cat', '. ', 'The', ' dog', '. ', 'The', ' end']);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['. and. or.', 'The cat. The dog. The end']);
  });

  it('is not reported when the first deltas recur but the replay diverges before it is confirmed', () => {
    const s = session();
    s.text(['Step one', ', step two', ', step three', ' — ', 'Step one', ', step two', ', step four']);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('is not reported when only the first deltas recur: the whole first attempt must be replayed', () => {
    const s = session();
    s.text([
      'Step one',
      ', step two',
      ', step three',
      ', step four',
      ' and again: ',
      'Step one',
      ', step two',
      ', step three',
      ', and done.',
    ]);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('is not reported for a first attempt under 8 characters that recurs', () => {
    const s = session();
    s.text(['ha', 'ha', 'ha', ' ok']);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => b.content)).toEqual(['hahaha ok']);
  });

  it('is not reported for text that repeats its opening lines: a cut call stops mid-line', () => {
    const s = session();
    const deltas = ['import os', '\n', 'import os', '\n', '\n', 'print(os.getcwd())', '\n'];
    s.text(deltas);
    s.r.end();
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => [b.status, b.content])).toEqual([['complete', deltas.join('')]]);
  });

  it('is not reported for a block of identical deltas, however long', () => {
    const s = session();
    const deltas = Array.from({ length: 200 }, () => 'ab');
    s.text(deltas);
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text').map((b) => b.content)).toEqual([deltas.join('')]);
  });

  it('is not reported for a block that repeats a run of several deltas', () => {
    const s = session();
    s.text(Array.from({ length: 120 }, (_, i) => ['ha', '!', ' '][i % 3] as string));
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('is not reported for a block that cycles through the same words again and again', () => {
    const s = session();
    const words = ['the ', 'stream ', 'inspector ', 'décode ', 'chaque '];
    s.text(Array.from({ length: 50 }, (_, i) => words[i % words.length] as string));
    expect(s.count('block.restarted')).toBe(0);
    expect(s.kinds('text')).toHaveLength(1);
  });

  it('still triggers when a first attempt that repeats itself inside is replayed after other text', () => {
    const s = session();
    const first = ['ab', 'ab', ' then something else'];
    for (const d of first) s.push('text', d);
    s.text([...first, ' and the end.']);
    expect(s.rules()).toEqual(['block.restarted']);
    expect(s.kinds('text').map((b) => b.content)).toEqual([first.join(''), `${first.join('')} and the end.`]);
  });

  it('is not reported for the same text in two closed blocks', () => {
    const s = session();
    s.text(attempt);
    s.text(attempt);
    expect(s.count('block.restarted')).toBe(0);
  });
});

describe('stream.meta-init-not-first', () => {
  const meta = JSON.stringify({ format: 'json', agent_uuid: A, parent_agent_uuid: null });

  it('triggers when meta_init arrives after the agent sent content in the same leg', () => {
    const s = session();
    s.text(['hi']);
    s.final('meta_init', meta);
    expect(s.rules()).toEqual(['stream.meta-init-not-first']);
  });

  it("is not reported for meta_init first, its later chunks, or another agent's content before it", () => {
    const s = session();
    s.text(['parent text'], B);
    s.push('meta_init', meta.slice(0, 10));
    s.final('meta_init', meta.slice(10));
    s.text(['hi']);
    expect(s.diagnostics).toEqual([]);
  });

  it('is not reported for the meta_init agent_base sends again at the start of a continuation leg', () => {
    const s = session();
    s.final('meta_init', meta);
    s.text(['hi']);
    s.newLeg();
    s.final('meta_init', meta);
    expect(s.diagnostics).toEqual([]);
  });
});

describe("'open' retention: closed blocks are counted, not kept", () => {
  it('holds only open blocks and calls waiting for their result, and counts every block', () => {
    const s = session({ retention: 'open' });
    for (let i = 0; i < 100; i++) s.text([`block ${i}`]);
    s.final('tool_call', '{}', tool('t1', 'search'));
    s.final('tool_call', '{}', tool('t2', 'search'));
    s.final('tool_result', 'ok', tool('t1', 'search'));
    s.push('thinking', 'still going');
    expect(s.blocks().map((b) => [b.id, b.kind])).toEqual([
      [101, 'tool_call'],
      [103, 'thinking'],
    ]);
    expect(s.r.counts()).toEqual({ blocks: 104, agents: 1 });
    s.r.end();
    expect(s.rules()).toEqual(['block.unterminated', 'tool.call-without-result']);
    expect(s.diagnostics.map((d) => d.at.block)).toEqual([103, 101]);
  });

  it('still links a repeated result to a call it has let go, and reports the same findings as `all`', () => {
    const run = (retention: 'all' | 'open') => {
      const s = session({ retention });
      s.final('tool_call', '{}', tool('t1', 'search'));
      s.final('tool_result', 'ok', tool('t1', 'search'));
      s.final('tool_result', 'again', { ...tool('t1', 'search'), agent: B });
      s.final('tool_call', '{}', tool('t1', 'search'));
      s.final('tool_result', 'late', tool('t9', 'search'));
      s.r.end();
      return s.rules();
    };
    // The repeated t1 result links; t9 has no call; the second t1 call (a new block after a final) gets no result.
    expect(run('open')).toEqual(['block.content-after-final', 'tool.result-without-call', 'tool.call-without-result']);
    expect(run('open')).toEqual(run('all'));
  });

  it('lets the least recently active idle agents go past its limit, never the root nor an agent with an open block', () => {
    const s = session({ retention: 'open' });
    s.text(['root'], A);
    s.push('thinking', 'open', { agent: B });
    const agents = HELD_IDLE_AGENTS * 3;
    for (let i = 0; i < agents; i++) s.text(['hi'], `sub-${i}`);
    const held = s.r.agents().map((a) => a.uuid);
    expect(held.length).toBeLessThanOrEqual(HELD_IDLE_AGENTS + 2);
    expect(held).toContain(A);
    expect(held).toContain(B);
    expect(held).toContain(`sub-${agents - 1}`);
    expect(held).not.toContain('sub-0');
    expect(s.r.rootAgent()).toBe(A);
    expect(s.r.counts()).toEqual({ blocks: agents + 2, agents: agents + 2 });
  });
});

describe('a block past the held-content cap', () => {
  it("keeps its first characters, counts the rest, and says so once: 'block.content-capped'", () => {
    const s = session({ maxBlockChars: 10 });
    s.push('text', 'abcdefgh');
    s.push('text', 'ijklmnop');
    s.push('text', 'qrstuvwx');
    s.r.end();
    const [block] = s.blocks();
    expect(block).toMatchObject({ content: 'abcdefghij', omittedChars: 14, envelopes: [0, 1, 2] });
    expect(s.rules()).toEqual(['block.content-capped', 'block.unterminated']);
    expect(s.diagnostics[0]?.message).toContain('passed 10 characters at envelope 1');
    expect(s.diagnostics[1]?.message).toContain('3 envelope(s) and 24 characters');
  });

  it('never splits a surrogate pair at the cap, and must not fire under it', () => {
    const s = session({ maxBlockChars: 10 });
    s.text(['abcdefghi😀']);
    expect(s.blocks()[0]).toMatchObject({ content: 'abcdefghi', omittedChars: 2 });
    const under = session({ maxBlockChars: 10 });
    under.text(['abcde', 'fghij']);
    expect(under.blocks()[0]?.omittedChars).toBeUndefined();
    expect(under.rules()).toEqual([]);
  });

  it('does not parse a buffered payload it cut', () => {
    const s = session({ maxBlockChars: 10 });
    s.push('tool_call', '{"query": "', tool('t1', 'search'));
    s.final('tool_call', 'a long search"}', tool('t1', 'search'));
    expect(s.rules()).toEqual(['block.content-capped']);
    expect(s.blocks()[0]?.status).toBe('complete');
  });

  it('holds at most MAX_BLOCK_CHARS of one endless block (was: "Invalid string length" past V8\'s longest string)', () => {
    const s = session();
    const delta = 'x'.repeat(8 * 1024 * 1024);
    // 96 Mi characters: past the cap, not yet V8's limit, so the test is quick and shows the cap holds.
    for (let i = 0; i < 12; i++) s.push('text', delta);
    expect(s.blocks()[0]?.content.length).toBe(MAX_BLOCK_CHARS);
    expect(s.blocks()[0]?.omittedChars).toBe(12 * delta.length - MAX_BLOCK_CHARS);
    expect(s.count('block.content-capped')).toBe(1);
  });
});
