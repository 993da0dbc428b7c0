import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { decodeEvents, rawEvent, rpcEvent } from './test-events';
import { blockEndFacts, endStatusOf } from '../../pipeline/end-status';
import type { DecodeResult } from '../../pipeline/types';

const endOf = (result: DecodeResult) =>
  endStatusOf({ stream: result.ends.at(-1)?.stream ?? null, ...blockEndFacts(result.blocks, result.ends.length - 1) });

const progress = (value: number, token: string | number = 'tok'): string =>
  rpcEvent({
    method: 'notifications/progress',
    params: { progressToken: token, progress: value, total: 3, message: `step ${value}` },
  });
const result = (content: unknown[], extra: Record<string, unknown> = {}): string =>
  rpcEvent({ id: 1, result: { content, ...extra } });

describe('MCP Streamable HTTP onto the unified surface and blocks', () => {
  it('progress notifications are tool-call status with the progress as their action, keyed by the token', () => {
    const { envelopes } = decodeEvents([progress(1), progress(2), result([{ type: 'text', text: 'ok' }])]);
    const status = envelopes.filter((e) => e.unified?.family === 'stream.tool_call_status');
    expect(
      status.map((e) => [e.type, e.control, e.unified?.ids.tool_call_id, e.unified?.phase, e.unified?.action]),
    ).toEqual([
      ['notifications/progress', 'provider-event', 'tok', 'in_progress', { progress: 1, total: 3, message: 'step 1' }],
      ['notifications/progress', 'provider-event', 'tok', 'in_progress', { progress: 2, total: 3, message: 'step 2' }],
    ]);
  });

  it('a tools/call result: its text items are text blocks, the other items blocks of their type, structuredContent JSON', () => {
    const { blocks, envelopes } = decodeEvents([
      result(
        [
          { type: 'text', text: 'It is ' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'file body' } },
          { type: 'resource_link', uri: 'file:///b', name: 'b.json' },
          { type: 'text', text: 'sunny' },
        ],
        { structuredContent: { sky: 'clear' } },
      ),
    ]);
    expect(blocks.map((b) => [b.kind, b.name ?? '', b.content])).toEqual([
      ['text', '', 'It is '],
      ['image', 'image/png', 'data:image/png;base64,AAAA'],
      ['resource', 'file:///a.txt', 'file body'],
      ['resource_link', 'b.json', '{"type":"resource_link","uri":"file:///b","name":"b.json"}'],
      ['text', '', 'sunny'],
      ['structured_content', '', '{"sky":"clear"}'],
      ['message', '', expect.any(String) as string],
    ]);
    expect(envelopes[0]?.unified).toMatchObject({ family: 'stream.tool_call_result', phase: 'completed' });
    expect(envelopes.filter((e) => e.type === 'text').map((e) => e.unified?.family)).toEqual([
      'stream.content_block_start',
      'stream.content_block_delta',
      'stream.content_block_stop',
      'stream.content_block_start',
      'stream.content_block_delta',
      'stream.content_block_stop',
    ]);
  });

  it('the message block sums the exchange up: id, status, last progress per token, the server requests; a result without content whole', () => {
    const { blocks } = decodeEvents([
      progress(1),
      rpcEvent({ id: 'srv-1', method: 'roots/list' }),
      progress(2),
      rpcEvent({ id: 'init-1', result: { protocolVersion: '2025-06-18', serverInfo: { name: 'demo' } } }),
    ]);
    const summary = JSON.parse(blocks.find((b) => b.kind === 'message')?.content ?? '') as Record<string, unknown>;
    expect(summary).toEqual({
      id: 'init-1',
      status: 'completed',
      stop_reason: 'result',
      protocol: 'mcp',
      jsonrpc_id: 'init-1',
      progress: [{ token: 'tok', progress: 2, total: 3, message: 'step 2' }],
      server_requests: [{ id: 'srv-1', method: 'roots/list' }],
      result: { protocolVersion: '2025-06-18', serverInfo: { name: 'demo' } },
    });
  });

  it('a server request is a tool call the client runs, named by its method, its params as input', () => {
    const { blocks, envelopes } = decodeEvents([
      rpcEvent({ id: 7, method: 'elicitation/create', params: { message: 'Your name?' } }),
      result([]),
    ]);
    expect(blocks[0]).toMatchObject({
      kind: 'tool_call',
      toolId: '7',
      name: 'elicitation/create',
      parsed: { message: 'Your name?' },
    });
    expect(envelopes[0]?.unified).toMatchObject({
      family: 'stream.tool_call_start',
      tool: { kind: 'client', name: 'elicitation/create' },
    });
  });

  it("the priming event, a log line and the old transport's endpoint event are shown as they are, with no finding", () => {
    const result1 = decodeEvents([
      'event: endpoint\ndata: /messages?session_id=abc\n\n',
      'id: p-0\nretry: 3000\ndata: \n\n',
      rpcEvent({ method: 'notifications/message', params: { level: 'error', data: 'disk full' } }, 'p-1'),
      rpcEvent({ id: 1, result: {} }, 'p-2'),
    ]);
    expect(result1.envelopes.map((e) => [e.type, e.extras])).toEqual([
      ['endpoint', { uri: '/messages?session_id=abc' }],
      ['priming', { id: 'p-0' }],
      [
        'notifications/message',
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'disk full' } },
      ],
      ['result', { jsonrpc: '2.0', id: 1, result: {} }],
      ['message', { id: '1' }],
    ]);
    expect(result1.diagnostics).toEqual([]);
  });

  it("the old transport's channel (an endpoint event first) carries response after response and has no end: ended, never done", () => {
    const channel = [
      'event: endpoint\ndata: /messages/?session_id=1bed\n\n',
      rpcEvent({ id: 0, result: { protocolVersion: '2024-11-05', capabilities: {} } }),
      rpcEvent({ id: 1, result: { tools: [] } }),
      rpcEvent({ id: 2, result: { content: [{ type: 'text', text: 'Hello, Teddy 🐶' }], isError: false } }),
    ];
    const decoded = decodeEvents(channel);
    // Each response ends its exchange; one after another is the channel's way, not a second capture.
    expect(decoded.diagnostics).toEqual([]);
    expect(decoded.blocks.filter((b) => b.kind === 'message')).toHaveLength(3);
    expect(endOf(decoded)).toMatchObject({ kind: 'ended' });
    // must not: a Streamable HTTP stream (no endpoint event) still ends at its response.
    expect(endOf(decodeEvents(channel.slice(1, 2))).kind).toBe('done');
  });

  it('a batch (a JSON array of messages) is decoded message by message', () => {
    const { envelopes, diagnostics } = decodeEvents([
      rawEvent(
        JSON.stringify([
          { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'a' } },
          { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'b' }] } },
        ]),
      ),
    ]);
    expect(envelopes.filter((e) => e.control === 'provider-event').map((e) => e.type)).toEqual([
      'notifications/message',
      'result',
    ]);
    expect(diagnostics).toEqual([]);
  });

  it('the demo tools/call stream: every event id and the progress lifecycle are kept', () => {
    const result1 = decodeBytes(readProviderFixture('json-rpc/mcp-tools-call.sse'));
    expect(result1.frames[0]?.map((f) => f.id)).toEqual(['call-0', 'call-1', 'call-2', 'call-3', 'call-4', 'call-5']);
    expect(result1.ends[0]?.lastEventId).toBe('call-5');
    const summary = JSON.parse(result1.blocks.find((b) => b.kind === 'message')?.content ?? '') as Record<
      string,
      unknown
    >;
    expect(summary['progress']).toEqual([{ token: 'weather-1', progress: 3, total: 3, message: 'Done' }]);
  });
});
