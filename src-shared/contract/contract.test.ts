import { describe, expect, it } from 'vitest';
import { command, contractNames, event, type ServiceOf } from './define';
import { dispatchCall } from './dispatch';
import { createEmitter } from './emitter';
import { CHANNEL_PREFIX, INSPECTOR_CONTRACT, INSPECTOR_NAMES, inspectorChannel } from './inspector';
import { ConnectRequest, SessionBatch, SendToolResultsRequest } from './payloads';
import * as s from './schema';
import { socketUrlFor } from './browser-host';
import { createContractClient, createContractServer, type ClientMessage, type ServerMessage } from './wire';

describe('the inspector contract', () => {
  it('names events onXxx and derives one channel per key under one prefix', () => {
    const { commands, events } = INSPECTOR_NAMES;
    expect(events.every((e) => /^on[A-Z]/.test(e))).toBe(true);
    expect(commands.some((c) => c.startsWith('on'))).toBe(false);
    expect([...commands, ...events].sort()).toEqual(Object.keys(INSPECTOR_CONTRACT).sort());
    const channels = [...commands, ...events].map(inspectorChannel);
    expect(new Set(channels).size).toBe(channels.length);
    expect(channels.every((c) => c.startsWith(CHANNEL_PREFIX))).toBe(true);
    expect(commands).toEqual(
      expect.arrayContaining([
        'connect',
        'stop',
        'openFile',
        'getRows',
        'getEnvelope',
        'getRawBytes',
        'getFrame',
        'getBlock',
        'sendToolResults',
      ]),
    );
    expect(events).toEqual(expect.arrayContaining(['onSessionsChanged', 'onSessionBatch', 'onLiveStatus', 'onError']));
  });

  it('refuses a contract whose names break the rule', () => {
    expect(() => contractNames({ onConnect: command(s.none(), s.none()) })).toThrow(/must not be named like an event/);
    expect(() => contractNames({ changes: event(s.none()) })).toThrow(/must be named onXxx/);
  });
});

describe('schemas', () => {
  it('accepts a connect request and rebuilds it from declared keys only', () => {
    const input = {
      url: 'http://127.0.0.1:8000/agent/run',
      method: 'POST',
      headers: [['Authorization', 'Bearer x']],
      body: { kind: 'json', text: '{}' },
    };
    const parsed = ConnectRequest.parse(input);
    expect(parsed).toEqual(input);
    expect(parsed).not.toBe(input);
  });

  it.each([
    [{ url: 'x', method: 'POST', headers: [], extra: 1 }, /arg\.extra: is not a known field/],
    [{ url: 'x', method: 'P O', headers: [] }, /arg\.method: does not match/],
    [{ url: 'x', method: 'GET', headers: [['a']] }, /arg\.headers\[0\]: expected a 2-tuple/],
    [
      { url: 'x', method: 'GET', headers: [], body: { kind: 'yaml', text: '' } },
      /arg\.body\.kind: expected one of "json", "raw", got "yaml"/,
    ],
    [{ url: '', method: 'GET', headers: [] }, /arg\.url: must not be empty/],
    [
      { url: 'x', method: 'GET', headers: [], reconnect: { maxAttempts: 0 } },
      /arg\.reconnect\.maxAttempts: 0 is outside 1\.\.100/,
    ],
    [
      JSON.parse('{"url":"x","method":"GET","headers":[],"__proto__":{"polluted":true}}') as unknown,
      /arg\.__proto__: is not a known field/,
    ],
  ])('rejects a malformed connect request with a path to the problem (%#)', (value, message) => {
    expect(() => ConnectRequest.parse(value, 'arg')).toThrow(message);
  });

  it('only lets plain JSON data through json()', () => {
    const schema = s.json();
    expect(schema.parse({ a: [1, 'x', null, { b: true }] })).toEqual({ a: [1, 'x', null, { b: true }] });
    expect(() => schema.parse({ a: Number.NaN })).toThrow(/which JSON cannot carry/);
    expect(() => schema.parse({ when: new Date(0) })).toThrow(/expected plain JSON data/);
    expect(() => schema.parse({ f: () => 1 })).toThrow(/expected plain JSON data, got a function/);
    expect(() => schema.parse(new Uint8Array(2))).toThrow(/expected plain JSON data/);
    const deep: unknown[] = [];
    let cursor = deep;
    for (let i = 0; i < 100; i++) cursor.push((cursor = []));
    expect(() => schema.parse(deep)).toThrow(/nests deeper than 64 levels/);
  });

  it('keeps tool results in the wire field names and refuses a record key that would pollute prototypes', () => {
    expect(
      SendToolResultsRequest.parse({
        sessionId: 's1',
        results: [{ tool_use_id: 'toolu_1', content: 'yes', is_error: false }],
      }),
    ).toEqual({
      sessionId: 's1',
      results: [{ tool_use_id: 'toolu_1', content: 'yes', is_error: false }],
    });
    expect(() => SendToolResultsRequest.parse({ sessionId: 's1', results: [], path: '//evil.example/x' })).toThrow(
      /path: does not match/,
    );
    expect(() =>
      SendToolResultsRequest.parse(JSON.parse('{"sessionId":"s1","results":[],"extraBody":{"__proto__":{}}}')),
    ).toThrow(/__proto__/);
  });

  it('checks an array of numbers item by item, naming the first bad one, and returns a copy', () => {
    const counts = s.array(s.index());
    const times = s.array(s.number({ min: 0, max: 10 }));
    const input = [0, 1, 2 ** 40];
    const parsed = counts.parse(input, 'columns');
    expect(parsed).toEqual(input);
    expect(parsed).not.toBe(input);
    expect(times.parse([0, 2.5, 10])).toEqual([0, 2.5, 10]);
    expect(() => counts.parse([0, 1.5], 'columns')).toThrow(/^columns\[1\]: expected an integer, got number 1.5$/);
    expect(() => counts.parse([3, -1], 'columns')).toThrow(/^columns\[1\]: -1 is outside 0\.\./);
    expect(() => counts.parse([0, 0, '2'], 'columns')).toThrow(/^columns\[2\]: expected a finite number, got "2"$/);
    expect(() => counts.parse([0, Number.NaN], 'columns')).toThrow(/^columns\[1\]: expected a finite number/);
    // eslint-disable-next-line no-sparse-arrays
    expect(() => counts.parse([0, , 2], 'columns')).toThrow(/^columns\[1\]: expected a finite number, got undefined$/);
    expect(() => times.parse([Number.POSITIVE_INFINITY])).toThrow(/^value\[0\]: expected a finite number/);
    expect(() => times.parse([11])).toThrow(/^value\[0\]: 11 is outside 0\.\.10$/);
    expect(() => s.array(s.index(), { max: 1 }).parse([1, 2])).toThrow(/has 2 items, the limit is 1/);
  });

  it('checks a batch event payload, rows and columns included', () => {
    const columns = { strings: ['a', 'text'], receivedAt: [1], agent: [0], type: [1], flags: [0] };
    const batch = {
      sessionId: 's1',
      total: 1,
      start: 0,
      columns,
      rows: [
        {
          seq: 0,
          leg: 0,
          frame: 0,
          receivedAt: 1,
          agent: 'a',
          type: 'text',
          final: false,
          preview: 'hi',
          deltaLength: 2,
          bytes: 10,
          diagnostics: 0,
        },
      ],
      changed: [],
      agents: [],
      blockRevision: 3,
      diagnosticCount: 0,
    };
    expect(SessionBatch.parse(batch)).toEqual(batch);
    expect(() => SessionBatch.parse({ ...batch, rows: [{ ...batch.rows[0], seq: -1 }] })).toThrow(
      /rows\[0\]\.seq: -1 is outside/,
    );
    expect(() => SessionBatch.parse({ ...batch, columns: { ...columns, flags: [] } })).toThrow(
      /value\.columns: columns of different lengths/,
    );
    expect(() => SessionBatch.parse({ ...batch, columns: { ...columns, type: [2] } })).toThrow(
      /row 0: string index 2 is outside the 2 strings/,
    );
    expect(() => SessionBatch.parse({ ...batch, blockRevision: -1 })).toThrow(/blockRevision/);
  });
});

const TEST_CONTRACT = {
  echo: command(s.object({ text: s.string({ max: 10 }) }), s.object({ text: s.string() })),
  broken: command(s.none(), s.object({ n: s.number() })),
  fail: command(s.none(), s.none()),
  onTick: event(s.object({ n: s.number() })),
} as const;

function testService() {
  const ticks = createEmitter<{ n: number }>();
  const service: ServiceOf<typeof TEST_CONTRACT> = {
    echo: ({ text }) => Promise.resolve({ text: text.toUpperCase() }),
    broken: () => Promise.resolve({ n: Number.POSITIVE_INFINITY }),
    fail: () => Promise.reject(new Error('nothing to stop')),
    onTick: ticks.event,
  };
  return { service, ticks };
}

/** A client and a server wired back to back through JSON, as over a socket. */
function connected() {
  const { service, ticks } = testService();
  const toServer: ClientMessage[] = [];
  const names = contractNames(TEST_CONTRACT);
  const toClient: { receive(message: unknown): void } = { receive: () => {} };
  const server = createContractServer(TEST_CONTRACT, service, (m: ServerMessage) =>
    toClient.receive(JSON.parse(JSON.stringify(m))),
  );
  const client = createContractClient(TEST_CONTRACT, names, (m) => {
    toServer.push(m);
    server.receive(JSON.parse(JSON.stringify(m)));
  });
  toClient.receive = (message) => client.receive(message);
  return { client, server, ticks, toServer };
}

describe('the contract over messages', () => {
  it('calls commands, checks arguments and results, and passes errors as messages', async () => {
    const { client } = connected();
    await expect(client.service.echo({ text: 'hi' })).resolves.toEqual({ text: 'HI' });
    await expect(client.service.echo({ text: 'far too long text' })).rejects.toThrow(
      /Invalid argument for echo: arg\.text: is 17 characters long, the limit is 10/,
    );
    await expect(client.service.broken()).rejects.toThrow(
      /broken produced an invalid result: result\.n: expected a finite number, got number Infinity/,
    );
    await expect(client.service.fail()).rejects.toThrow(/^nothing to stop$/);
  });

  it('subscribes on the first listener, unsubscribes after the last, and delivers checked payloads', () => {
    const { client, ticks, toServer } = connected();
    const seen: number[] = [];
    const off1 = client.service.onTick((t) => seen.push(t.n));
    const off2 = client.service.onTick((t) => seen.push(t.n * 10));
    expect(toServer.filter((m) => m.t === 'subscribe')).toHaveLength(1);
    ticks.fire({ n: 1 });
    off1();
    ticks.fire({ n: 2 });
    off2();
    expect(toServer.filter((m) => m.t === 'unsubscribe')).toHaveLength(1);
    ticks.fire({ n: 3 });
    expect(seen).toEqual([1, 10, 20]);
    expect(ticks.listenerCount).toBe(0);
  });

  it('ignores malformed messages and unknown commands without throwing', async () => {
    const { service } = testService();
    const replies: ServerMessage[] = [];
    const errors: string[] = [];
    const server = createContractServer(TEST_CONTRACT, service, (m) => replies.push(m), {
      onProtocolError: (e) => errors.push(e),
    });
    server.receive('not an object');
    server.receive({ t: 'call', id: 1, method: 'echo', arg: { text: 'x' }, extra: true });
    server.receive({ t: 'subscribe', event: 'echo' });
    expect(errors).toHaveLength(3);
    expect(await dispatchCall(TEST_CONTRACT, service, 'constructor', undefined)).toEqual({
      ok: false,
      error: { message: "Unknown command 'constructor'", invalidArgument: true },
    });
    expect(await dispatchCall(TEST_CONTRACT, service, 'onTick', undefined)).toMatchObject({ ok: false });
  });

  it('drops every subscription when the client goes away', () => {
    const { client, server, ticks } = connected();
    client.service.onTick(() => {});
    expect(ticks.listenerCount).toBe(1);
    server.dispose();
    expect(ticks.listenerCount).toBe(0);
  });
});

describe('browser host URLs', () => {
  it('derives the socket URL from the page URL, token included', () => {
    expect(socketUrlFor('http://127.0.0.1:5173/abc123/')).toBe('ws://127.0.0.1:5173/abc123/ws');
    expect(socketUrlFor('http://127.0.0.1:5173/abc123/index.html?x=1#y')).toBe('ws://127.0.0.1:5173/abc123/ws');
    expect(() => socketUrlFor('file:///x')).toThrow(/Not a browser-host page URL/);
  });
});
