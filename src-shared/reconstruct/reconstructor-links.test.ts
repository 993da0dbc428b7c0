import { describe, expect, it } from 'vitest';
import { A, B, session, tool } from './reconstructor-harness';

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

  it("an image no tool result claims (no id) is the model's own output: it attaches to the open text block", () => {
    const s = session();
    s.push('text', 'Here it is:');
    s.push('tool_result_image', '', { extras: { src: 'data:image/png;base64,AA==', media_type: 'image/png' } });
    s.final('text', '');
    s.r.end();
    expect(s.diagnostics).toEqual([]);
    expect(s.blocks()).toHaveLength(1);
    expect(s.blocks()[0]).toMatchObject({ kind: 'text', content: 'Here it is:', images: [{ mediaType: 'image/png' }] });
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

  it('tool.call-without-result: not reported for a pending frontend tool no continuation answered (the run awaits it)', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'user_confirm'));
    s.final('awaiting_frontend_tools', '{"tools":[{"tool_use_id":"t1","name":"user_confirm","input":{}}]}');
    s.r.end();
    expect(s.diagnostics).toEqual([]);
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

  it('tool.call-without-result: not reported when the continuation only brought an error frame (the run still awaits it)', () => {
    const s = session();
    s.final('tool_call', '{}', tool('t1', 'user_confirm'));
    s.final('awaiting_frontend_tools', '[{"tool_use_id": "t1", "name": "user_confirm", "input": {}}]');
    s.newLeg();
    s.push('error_frame', 'Tool result mismatch', { final: true, control: 'error-frame' });
    s.r.end();
    expect(s.rules()).toEqual([]);
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

  it("reads a call's answer_hint; one that is no string (an edited recording) is left out, the call and the payload kept", () => {
    const s = session();
    const payload = JSON.stringify({
      tools: [
        { tool_use_id: 'c1', name: 'computer', input: {}, answer_hint: 'a screenshot' },
        { tool_use_id: 'c2', name: 'computer', input: {}, answer_hint: 42 },
      ],
    });
    s.final('awaiting_frontend_tools', payload);
    expect(s.blocks()[0]?.pendingTools).toEqual([
      { toolUseId: 'c1', name: 'computer', input: {}, answerHint: 'a screenshot' },
      { toolUseId: 'c2', name: 'computer', input: {} },
    ]);
    expect(s.blocks()[0]?.content).toBe(payload);
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
