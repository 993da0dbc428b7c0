import { describe, expect, it } from 'vitest';
import { A, B, session, tool } from './reconstructor-harness';

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

  it('is not reported for a part that says it replaces the completed one of its id (extras.replaces): its next version', () => {
    const s = session();
    s.final('data-weather', '{"city":"Paris"}', tool('w1', 'data-weather'));
    s.final('data-weather', '{"city":"Paris","temp":21}', {
      extras: { id: 'w1', name: 'data-weather', replaces: true },
    });
    expect(s.diagnostics).toEqual([]);
    expect(s.kinds('data-weather').map((b) => b.content)).toEqual(['{"city":"Paris"}', '{"city":"Paris","temp":21}']);
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

  it.each(['all', 'open'] as const)(
    'names the error that came while the block was open: what cut it short (%s retention)',
    (retention) => {
      // 'open' retention (the CLI's) lets the settled error block go before the end.
      const s = session({ retention });
      s.push('text', 'Partial');
      s.final('error', '{"message": "Stream failed"}');
      s.r.end();
      const [unterminated] = s.diagnostics.filter((d) => d.rule === 'block.unterminated');
      expect(unterminated?.message).toMatch(
        /^text block #0 .* not closed: an error \(block #1\) came while it was open\.$/,
      );
    },
  );

  it('must not name an error that came before the block started', () => {
    const s = session();
    s.final('error', '{"message": "retried"}');
    s.push('text', 'Partial');
    s.r.end();
    const [unterminated] = s.diagnostics.filter((d) => d.rule === 'block.unterminated');
    expect(unterminated?.message).toMatch(/It is shown as received, not closed\.$/);
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
