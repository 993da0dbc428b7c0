import { describe, expect, it, test } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import type { DecodeResult } from '../../pipeline/types';
import { decodeEvents, rawEvent, rpcEvent } from './test-events';

/** Each rule of rules.ts (and provider.next-message, which this dialect shares): a stream that triggers it, and near misses that must not. */

const a2a = (result: Record<string, unknown>, id: unknown = 1): string =>
  rawEvent(JSON.stringify({ jsonrpc: '2.0', id, result }));
const task = a2a({ kind: 'task', id: 't', contextId: 'c', status: { state: 'submitted' } });
const working = a2a({ kind: 'status-update', taskId: 't', status: { state: 'working' }, final: false });
const final = (state: string): string =>
  a2a({
    kind: 'status-update',
    taskId: 't',
    status: { state, message: { role: 'agent', parts: [{ kind: 'text', text: `it is ${state}` }] } },
    final: true,
  });
const chunk = (artifactId: string, append: boolean, lastChunk: boolean): string =>
  a2a({
    kind: 'artifact-update',
    taskId: 't',
    artifact: { artifactId, parts: [{ kind: 'text', text: `${artifactId} ` }] },
    append,
    lastChunk,
  });
const progress = (value: number, token: string | number = 'tok', eventId?: string): string =>
  rpcEvent({ method: 'notifications/progress', params: { progressToken: token, progress: value } }, eventId);
const log = (eventId?: string): string =>
  rpcEvent({ method: 'notifications/message', params: { level: 'info', data: 'x' } }, eventId);
const response = (id: unknown = 1, eventId?: string): string =>
  rpcEvent({ id, result: { content: [{ type: 'text', text: 'ok' }] } }, eventId);

const statusOf = (result: DecodeResult): string =>
  endStatusOf({ stream: result.ends[0]?.stream ?? null, ...blockEndFacts(result.blocks, 0) }).label;
const fires = (rule: string, events: string[]): boolean => rulesOf(decodeEvents(events)).includes(rule);

describe('json-rpc.invalid-message', () => {
  test.each([
    ['no "jsonrpc" member', rawEvent('{"id":1,"result":{}}')],
    ['"jsonrpc": "1.0"', rawEvent('{"jsonrpc":"1.0","id":1,"result":{}}')],
    ['both a result and an error', rawEvent('{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}')],
    ['neither a method, a result nor an error', rawEvent('{"jsonrpc":"2.0","id":1}')],
    ['a method that is no string', rawEvent('{"jsonrpc":"2.0","method":5}')],
    ['an error without code and message', rawEvent('{"jsonrpc":"2.0","id":1,"error":{"reason":"x"}}')],
    ['a result with a null id', rawEvent('{"jsonrpc":"2.0","id":null,"result":{}}')],
    ['an id that is an object', rawEvent('{"jsonrpc":"2.0","id":{"n":1},"result":{}}')],
    ['a response without an id', rawEvent('{"jsonrpc":"2.0","result":{}}')],
    ['text that is no JSON', rawEvent('{"jsonrpc":"2.0", oops')],
    ['an empty batch', rawEvent('[]')],
    ['a number in a batch', rawEvent('[7]')],
  ])('fires on %s, after a valid first message, and keeps the message', (_name, bad) => {
    const result = decodeEvents([log(), bad]);
    expect(rulesOf(result)).toContain('json-rpc.invalid-message');
    const last = result.envelopes.at(-1);
    expect(last?.frame).toBe(1);
  });

  it('a response without "jsonrpc" is still decoded as the response (its content is not lost)', () => {
    const result = decodeEvents([log(), rawEvent('{"id":1,"result":{"content":[{"type":"text","text":"kept"}]}}')]);
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('kept');
    expect(statusOf(result)).toBe('done');
  });

  test.each([
    ['a request, a notification, a result', [rpcEvent({ id: 's1', method: 'roots/list' }), log(), response()]],
    [
      'an error with a null id',
      [rawEvent('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}')],
    ],
    [
      'the priming event and an endpoint event',
      ['id: 0\ndata: \n\n', 'event: endpoint\ndata: /messages\n\n', response()],
    ],
    ['a batch', [rawEvent(`[${JSON.stringify({ jsonrpc: '2.0', id: 1, result: {} })}]`)]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.invalid-message', events)).toBe(false);
  });
});

describe('json-rpc.unknown-id', () => {
  it('fires on an A2A event answering another id, which is shown and not decoded', () => {
    const result = decodeEvents([
      task,
      a2a(
        {
          kind: 'artifact-update',
          taskId: 't',
          artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'stray' }] },
        },
        2,
      ),
      final('completed'),
    ]);
    expect(rulesOf(result)).toEqual(['json-rpc.unknown-id']);
    expect(result.blocks.some((b) => b.content === 'stray')).toBe(false);
    expect(result.envelopes.find((e) => e.frame === 1)?.control).toBe('provider-event');
  });

  test.each([
    ['every event answering the same id', [task, working, final('completed')]],
    [
      'string and number ids kept apart only when they differ in kind too',
      [
        a2a({ kind: 'task', id: 't', status: { state: 'working' } }, 'r1'),
        a2a({ kind: 'status-update', taskId: 't', status: { state: 'completed' }, final: true }, 'r1'),
      ],
    ],
    [
      'an error with a null id (the server could not read the request)',
      [task, rawEvent('{"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"Internal error"}}')],
    ],
    ['the first MCP response, whatever its id', [progress(1), response('any-id')]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.unknown-id', events)).toBe(false);
  });

  it('1 and "1" are different ids', () => {
    expect(
      fires('json-rpc.unknown-id', [
        a2a({ kind: 'task', id: 't', status: { state: 'working' } }, 1),
        a2a({ kind: 'status-update', taskId: 't', status: { state: 'completed' }, final: true }, '1'),
      ]),
    ).toBe(true);
  });
});

describe('json-rpc.error', () => {
  it('fires on a JSON-RPC error response, which ends the stream by error and forms an error block', () => {
    const result = decodeEvents([
      progress(1),
      rpcEvent({ id: 1, error: { code: -32602, message: 'Unknown tool: x', data: { tool: 'x' } } }),
    ]);
    expect(rulesOf(result)).toEqual(['json-rpc.error']);
    expect(statusOf(result)).toBe('ended by error');
    expect(result.ends[0]?.stream.error?.message).toBe('error -32602: Unknown tool: x');
    expect(result.blocks.map((b) => b.kind)).toEqual(['error', 'message']);
  });

  it('names the request it answers, or says that the server could not tell which (id null or absent)', () => {
    const said = (event: string): string | undefined =>
      decodeEvents([event]).diagnostics.find((d) => d.rule === 'json-rpc.error')?.message;
    expect(said(rpcEvent({ id: 7, error: { code: -32601, message: 'no' } }))).toBe(
      'The server answered request 7 with JSON-RPC error -32601: no.',
    );
    const parseError =
      'The server answered a request it could not tell (id null) with JSON-RPC error -32700: Parse error.';
    expect(said(rpcEvent({ id: null, error: { code: -32700, message: 'Parse error' } }))).toBe(parseError);
    expect(said(rpcEvent({ error: { code: -32700, message: 'Parse error' } }))).toBe(parseError);
    expect(
      decodeEvents([rpcEvent({ error: { code: -32700, message: 'Parse error' } })]).diagnostics.find(
        (d) => d.rule === 'json-rpc.invalid-message',
      )?.message,
    ).toMatch(/; decoded as an error response\.$/);
  });

  it('does not fire on a tool result with isError, nor on a result', () => {
    expect(fires('json-rpc.error', [rpcEvent({ id: 1, result: { content: [], isError: true } })])).toBe(false);
    expect(fires('json-rpc.error', [response()])).toBe(false);
  });
});

describe('json-rpc.tool-error', () => {
  it('fires on isError: true, and the stream still ends done: the tool failed, the protocol did not', () => {
    const result = decodeEvents([
      rpcEvent({ id: 1, result: { content: [{ type: 'text', text: 'rate limited' }], isError: true } }),
    ]);
    expect(rulesOf(result)).toEqual(['json-rpc.tool-error']);
    expect(result.diagnostics[0]?.severity).toBe('warning');
    expect(result.diagnostics[0]?.message).toContain('"rate limited"');
    expect(statusOf(result)).toBe('done');
  });

  test.each([
    ['isError: false', { content: [], isError: false }],
    ['no isError', { content: [] }],
    ['isError on a result without content', { isError: true }],
  ])('does not fire on %s', (_name, result) => {
    expect(fires('json-rpc.tool-error', [rpcEvent({ id: 1, result })])).toBe(false);
  });
});

describe('json-rpc.task-failed', () => {
  test.each(['failed', 'rejected', 'TASK_STATE_FAILED'])('fires on a task ending %s, by error', (state) => {
    const result = decodeEvents([task, working, final(state)]);
    expect(rulesOf(result)).toEqual(['json-rpc.task-failed']);
    expect(statusOf(result)).toBe('ended by error');
  });

  test.each(['completed', 'canceled', 'input-required', 'auth-required'])(
    'does not fire on a task ending %s',
    (state) => {
      const result = decodeEvents([task, working, final(state)]);
      expect(rulesOf(result)).toEqual([]);
      expect(statusOf(result)).toBe('done');
    },
  );
});

describe('json-rpc.artifact-out-of-order', () => {
  test.each([
    ['an append to an artifact never started', [task, chunk('a', true, false), final('completed')]],
    ['an append after the lastChunk', [task, chunk('a', false, true), chunk('a', true, false), final('completed')]],
  ])('fires on %s, and keeps its text', (_name, events) => {
    const result = decodeEvents(events);
    expect(rulesOf(result)).toEqual(['json-rpc.artifact-out-of-order']);
    expect(
      result.blocks
        .filter((b) => b.kind === 'text')
        .map((b) => b.content)
        .join(''),
    ).toContain('a ');
  });

  test.each([
    [
      'chunks in order',
      [task, chunk('a', false, false), chunk('a', true, false), chunk('a', true, true), final('completed')],
    ],
    [
      'an artifact sent again whole (append: false) after its lastChunk',
      [task, chunk('a', false, true), chunk('a', false, true), final('completed')],
    ],
    [
      'artifacts without lastChunk, closed by the final status',
      [task, chunk('a', false, false), chunk('b', false, false), final('completed')],
    ],
  ])('does not fire on %s', (_name, events) => {
    expect(rulesOf(decodeEvents(events))).toEqual([]);
  });
});

describe('json-rpc.unknown-state', () => {
  it('fires once for a task state A2A does not have, shown as sent; the stream still ends at final', () => {
    const result = decodeEvents([task, final('tool_calls')]);
    expect(rulesOf(result)).toEqual(['json-rpc.unknown-state']);
    expect(result.diagnostics[0]?.message).toContain('is in state "tool_calls" in event 1');
    expect(statusOf(result)).toBe('done');
  });

  test.each(['completed', 'cancelled', 'unknown', 'TASK_STATE_INPUT_REQUIRED'])('does not fire on %s', (state) => {
    expect(fires('json-rpc.unknown-state', [task, final(state)])).toBe(false);
  });
});

describe('json-rpc.after-end', () => {
  test.each([
    ['an A2A event after the final status update', [task, final('completed'), working], 2],
    ['MCP messages after the response, to the end of the stream', [response(), log(), log()], 1],
    ['the MCP response repeated', [response(7), response(7)], 1],
  ])('fires once on %s, at the first event after the end', (_name, events, frame) => {
    const result = decodeEvents(events);
    expect(rulesOf(result)).toEqual(['json-rpc.after-end']);
    expect(result.diagnostics[0]?.at.frame).toBe(frame);
    expect(statusOf(result)).toBe('done');
  });

  it("names what ended the stream: the final status update, the response, or the agent's Message", () => {
    const said = (events: string[]) => decodeEvents(events).diagnostics[0]?.message ?? '';
    expect(said([task, final('completed'), working])).toContain('came after the final status update in event 1');
    expect(said([response(), log()])).toContain('came after the response in event 0');
    const reply = a2a({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'Hi' }] });
    expect(said([reply, reply])).toContain("came after the agent's Message (its reply, without a Task) in event 0");
  });

  test.each([
    ['a stream that ends with its response', [log(), response()]],
    ['the next exchange of a capture (a response to another id)', [response(1), log(), response(2)]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.after-end', events)).toBe(false);
  });
});

describe('provider.next-message, for a capture of several JSON-RPC exchanges', () => {
  it('fires at the response that shows the next MCP exchange began, and the stream ends with the last one', () => {
    const result = decodeEvents([progress(1), response(1), progress(1, 'tok2'), response(2)]);
    expect(rulesOf(result)).toEqual(['provider.next-message']);
    expect(result.diagnostics[0]?.at.frame).toBe(3);
    expect(result.blocks.filter((b) => b.kind === 'message')).toHaveLength(2);
    expect(statusOf(result)).toBe('done');
  });

  it('fires at the first event of the next A2A exchange, which must reach its own final status', () => {
    const cut = decodeEvents([
      task,
      final('completed'),
      a2a({ kind: 'task', id: 't2', status: { state: 'working' } }, 2),
    ]);
    expect(rulesOf(cut)).toEqual(['provider.next-message', 'json-rpc.truncated']);
    expect(statusOf(cut)).toBe('truncated');
  });

  it('does not fire on one exchange', () => {
    expect(fires('provider.next-message', [progress(1), response(1)])).toBe(false);
  });
});

describe('json-rpc.truncated', () => {
  test.each([
    ['an A2A stream without its final status update', [task, working, chunk('a', false, false)]],
    ['an MCP stream whose progress says a request runs, without its response', [progress(1), progress(2)]],
  ])('fires on %s, and the stream is truncated', (_name, events) => {
    const result = decodeEvents(events);
    expect(rulesOf(result)).toContain('json-rpc.truncated');
    expect(statusOf(result)).toBe('truncated');
  });

  test.each([
    ['a complete A2A stream', [task, final('completed')]],
    ['a complete MCP stream', [progress(1), response()]],
    ['server messages only (a GET stream)', [log(), rpcEvent({ id: 's', method: 'roots/list' })]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.truncated', events)).toBe(false);
  });
});

describe('json-rpc.resumable-end', () => {
  it('fires on an MCP stream with event ids that ends before its response: a warning, the stream is not done', () => {
    const result = decodeEvents([progress(1, 'tok', 'e1'), log('e2')]);
    expect(rulesOf(result)).toEqual(['json-rpc.resumable-end']);
    expect(result.diagnostics[0]?.message).toContain('"e2"');
    expect(statusOf(result)).toBe('truncated');
  });

  test.each([
    ['an MCP stream without event ids', [progress(1), log()]],
    ['an MCP stream with event ids that ends with its response', [progress(1, 'tok', 'e1'), response(1, 'e2')]],
    ['an A2A stream with event ids (A2A resumes by tasks/resubscribe, not by ids)', [`id: 1\n${task}`]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.resumable-end', events)).toBe(false);
  });
});

describe('json-rpc.no-response', () => {
  it("fires on a stream of server messages only, whose end status is the transport's (a GET stream has no terminal event)", () => {
    const result = decodeEvents([log(), rpcEvent({ method: 'notifications/tools/list_changed' })]);
    expect(rulesOf(result)).toEqual(['json-rpc.no-response']);
    expect(result.diagnostics[0]?.severity).toBe('info');
    expect(statusOf(result)).toBe('ended');
  });

  test.each([
    ['a stream with its response', [log(), response()]],
    ['progress without a response (a POST cut short)', [log(), progress(1)]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.no-response', events)).toBe(false);
  });
});

describe('json-rpc.progress-backwards', () => {
  test.each([
    ['progress that goes back', [progress(2), progress(1), response()]],
    ['progress that stays', [progress(0.5), progress(0.5), response()]],
  ])('fires on %s, at the notification', (_name, events) => {
    const result = decodeEvents(events);
    expect(rulesOf(result)).toEqual(['json-rpc.progress-backwards']);
    expect(result.diagnostics[0]?.at.frame).toBe(1);
  });

  test.each([
    ['increasing progress, fractions too', [progress(0.25), progress(0.5), progress(1), response()]],
    ['two tokens counted apart', [progress(2, 'a'), progress(1, 'b'), response()]],
    ['a token and the same text as a number are different tokens', [progress(2, 1), progress(1, '1'), response()]],
  ])('does not fire on %s', (_name, events) => {
    expect(fires('json-rpc.progress-backwards', events)).toBe(false);
  });
});
