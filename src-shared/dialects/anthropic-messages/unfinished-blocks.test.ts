import { describe, expect, it } from 'vitest';
import { decodeProviderEvents, providerEvent as ev, rulesOf } from '../../../src-main/testing/provider-streams';

const start = ev('message_start', {
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-test', content: [], usage: {} },
});
const toolStart = ev('content_block_start', {
  index: 0,
  content_block: { type: 'tool_use', id: 'toolu_1', name: 'make_file', input: {} },
});
const input = (partial: string): string =>
  ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: partial } });
const stopReason = (reason: string): string =>
  ev('message_delta', { delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 9 } });
const toolPieces = [toolStart, input(''), input('{"filename": "taxes.txt'), input('", "lines": ["# Tax')];
const PARTIAL = '{"filename": "taxes.txt", "lines": ["# Tax';

/** The tool call blocks of a decode: kind, status, name, id, content and whether it parsed. */
const callsOf = (events: string[]) =>
  decodeProviderEvents(events)
    .blocks.filter((b) => b.kind === 'tool_call')
    .map((b) => [b.status, b.name, b.toolId, b.content, b.parsed !== undefined]);

describe('a block the message ends with still open', () => {
  it('max_tokens inside a tool call: the call is kept open with its input as sent, unparsed; the stop explains it', () => {
    const events = [start, ...toolPieces, stopReason('max_tokens'), ev('message_stop')];
    expect(callsOf(events)).toEqual([['open', 'make_file', 'toolu_1', PARTIAL, false]]);
    // Reported once, by the stop that cut it (and by reconstruction: a block never finished).
    expect(rulesOf(decodeProviderEvents(events))).toEqual([
      'provider.response-incomplete',
      'block.unterminated',
      'tool.call-without-result',
    ]);
  });

  it('a stream cut inside a tool call, or an error, keeps the call open; only the cut one says no stop came', () => {
    const cut = [start, ...toolPieces];
    expect(callsOf(cut)).toEqual([['open', 'make_file', 'toolu_1', PARTIAL, false]]);
    expect(rulesOf(decodeProviderEvents(cut))).toContain('provider.block-not-stopped');
    const failed = [...cut, ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } })];
    expect(callsOf(failed)).toEqual([['open', 'make_file', 'toolu_1', PARTIAL, false]]);
    expect(rulesOf(decodeProviderEvents(failed))).not.toContain('provider.block-not-stopped');
  });

  it('a server tool whose whole input came in its start keeps that input; a block kept whole keeps its start', () => {
    const server = ev('content_block_start', {
      index: 0,
      content_block: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'tax' } },
    });
    const result = decodeProviderEvents([start, server]);
    expect(result.blocks.map((b) => [b.kind, b.status, b.content])).toEqual([
      ['server_tool_call', 'open', '{"query":"tax"}'],
      ['message', 'complete', expect.any(String)],
    ]);
    const redacted = ev('content_block_start', { index: 0, content_block: { type: 'redacted_thinking', data: 'x' } });
    expect(decodeProviderEvents([start, redacted]).blocks[0]?.content).toBe('{"type":"redacted_thinking","data":"x"}');
  });

  it('must not: a tool call that got its stop is one complete call, and an open block at end_turn is still reported', () => {
    const done = [start, toolStart, input('{"filename": "a"}'), ev('content_block_stop', { index: 0 })];
    expect(callsOf([...done, stopReason('tool_use'), ev('message_stop')])).toEqual([
      ['complete', 'make_file', 'toolu_1', '{"filename": "a"}', true],
    ]);
    const open = [start, ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } })];
    expect(rulesOf(decodeProviderEvents([...open, stopReason('end_turn'), ev('message_stop')]))).toContain(
      'provider.block-not-stopped',
    );
  });
});
