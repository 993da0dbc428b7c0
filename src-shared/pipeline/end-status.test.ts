import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { providerFixturePath, readFixture } from '../../src-main/testing/fixtures';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { blockEndFacts, endStatusOf, type EndFacts, type EndStatus } from './end-status';
import { decodeLegs } from './session-decoder';
import type { DecodeResult } from './types';
import { DIALECTS } from '../dialects/registry';

const AGENT = '11111111-1111-4111-8111-111111111111';
const text = (delta: string, final = false): string =>
  `data: ${JSON.stringify({ type: 'text', agent: AGENT, final, delta })}\n\n`;

function statusOf(result: DecodeResult, outcome?: EndFacts['outcome']): EndStatus {
  return endStatusOf({
    stream: result.ends.at(-1)?.stream ?? null,
    ...blockEndFacts(result.blocks, result.ends.length - 1),
    ...(outcome ? { outcome } : {}),
  });
}

/** The status of `bytes` decoded whole, byte by byte and at random splits: it must not depend on the chunking. */
function statusesOf(bytes: Uint8Array): EndStatus {
  const all = chunkings(bytes).map(({ chunks }) => statusOf(decodeLegs([chunks.map((c) => ({ bytes: c }))])));
  for (const status of all) expect(status).toEqual(all[0]);
  return all[0] as EndStatus;
}

describe('end status: truncated and failed streams are never "done"', () => {
  it('done: [DONE] after every block closed', () => {
    expect(statusesOf(readFixture('json_stream.json.sse'))).toMatchObject({
      kind: 'done',
      label: 'done',
      reason: 'The stream ended with [DONE].',
    });
    expect(statusesOf(encodeUtf8(`${text('a')}${text('', true)}data: [DONE]\n\n`)).kind).toBe('done');
  });

  it('ended by an error: the router error frame without [DONE] (error_midstream)', () => {
    const status = statusesOf(readFixture('error_midstream.json.sse'));
    expect(status).toMatchObject({ kind: 'error', label: 'ended by error' });
    expect(status.reason).toMatch(/^The stream ended with an error in event 5: APIStatusError: .*Overloaded/);
  });

  it('ended by an error: an error envelope, even with [DONE] after it', () => {
    const error = `data: ${JSON.stringify({ type: 'error', agent: AGENT, final: true, delta: 'rate limited' })}\n\n`;
    expect(statusesOf(encodeUtf8(`${text('a')}${text('', true)}${error}data: [DONE]\n\n`))).toMatchObject({
      kind: 'error',
      reason: expect.stringContaining('"rate limited"') as unknown,
    });
  });

  it('ended by an error: [DONE] joined to the last event, which clients fail on (not "cut off")', () => {
    const joined = `${text('a')}data: ${JSON.stringify({ type: 'text', agent: AGENT, final: true, delta: '' })}\ndata: [DONE]\n\n`;
    expect(statusesOf(encodeUtf8(joined))).toMatchObject({
      kind: 'error',
      reason:
        'The stream ended with an error in event 1: Event 1 joins [DONE] to the message before it (no blank line between them), and clients fail on it.',
    });
    const ui = [
      'data: {"type":"start","messageId":"m1"}\n\n',
      'data: {"type":"text-start","id":"t"}\n\ndata: {"type":"text-delta","id":"t","delta":"hi"}\n\n',
      'data: {"type":"text-end","id":"t"}\n\ndata: {"type":"finish"}\ndata: [DONE]\n\n',
    ].join('');
    expect(statusesOf(encodeUtf8(ui)).kind).toBe('error');
  });

  it('incomplete: the terminal event arrived but output was cut short; an error, a cut or lost data wins over it', () => {
    const base = { openBlocks: [], abandonedBlocks: [], awaitingTools: false };
    const stream = {
      terminal: { event: 'message_stop', frame: 6 },
      error: null,
      cutMidEvent: false,
      frames: 7,
      incomplete: { message: 'stop_reason "max_tokens"', frame: 5 },
    };
    expect(endStatusOf({ ...base, stream })).toEqual({
      kind: 'incomplete',
      label: 'incomplete',
      reason: 'The stream ended with message_stop, but the output was cut short in event 5: stop_reason "max_tokens".',
    });
    // A block the cut leaves open is explained by it.
    expect(endStatusOf({ ...base, openBlocks: [{ id: 0, kind: 'text' }], stream }).kind).toBe('incomplete');
    expect(endStatusOf({ ...base, stream: { ...stream, error: { message: 'boom', frame: 6 } } }).kind).toBe('error');
    expect(endStatusOf({ ...base, stream: { ...stream, cutMidEvent: true } }).kind).toBe('truncated');
    expect(endStatusOf({ ...base, lostData: 'a hole', stream }).kind).toBe('truncated');
    expect(endStatusOf({ ...base, stream: { ...stream, incomplete: undefined } }).kind).toBe('done');
  });

  it('truncated: cut inside an event', () => {
    // Inside a data line (3,000 bytes would end right after one, which is decoded: sse.unterminated-last-event).
    const cut = readFixture('json_stream.json.sse').subarray(0, 2990);
    const status = statusesOf(cut);
    expect(status).toMatchObject({ kind: 'truncated', label: 'truncated' });
    expect(status.reason).toMatch(/cut inside an event after \d+ complete events/);
  });

  it('truncated: a clean close without [DONE], and blocks left open', () => {
    expect(statusesOf(encodeUtf8(`${text('a')}${text('', true)}`)).reason).toMatch(
      /^The stream ended after 2 events without data: \[DONE\]\.$/,
    );
    expect(statusesOf(encodeUtf8(`${text('a')}data: [DONE]\n\n`))).toMatchObject({
      kind: 'truncated',
      reason: 'The stream ended with block #0 (text) still open (no final envelope).',
    });
  });

  it('truncated: a block a retried call abandoned (retry_midstream)', () => {
    expect(statusesOf(readFixture('retry_midstream.json.sse'))).toMatchObject({
      kind: 'truncated',
      reason: expect.stringMatching(
        /^Block #1 \(text\) never closed: it was opened again before the final marker/,
      ) as unknown,
    });
  });

  it('awaiting tools: a run paused on awaiting_frontend_tools', () => {
    expect(statusesOf(readFixture('frontend_tools.json.sse'))).toMatchObject({
      kind: 'paused',
      label: 'awaiting tools',
      reason: 'The run paused on awaiting_frontend_tools and waits for tool results.',
    });
  });

  it('a paused turn: pause_turn, no call named, waits to be continued, not for tools; must not: a pause that names nothing else', () => {
    expect(statusesOf(readFileSync(providerFixturePath('anthropic-messages/server-tools.sse')))).toMatchObject({
      kind: 'paused',
      label: 'paused turn',
      reason: expect.stringContaining('waits for its turn to be continued') as unknown,
    });
    const empty = `data: ${JSON.stringify({ type: 'awaiting_frontend_tools', agent: AGENT, final: true, delta: '{"tools":[]}' })}\n\n`;
    expect(statusesOf(encodeUtf8(`${text('a', true)}${empty}data: [DONE]\n\n`)).kind).toBe('done');
  });

  it('awaiting approval: every call the run paused on waits for its approval (AI SDK, MCP through Responses)', () => {
    for (const fixture of ['ai-sdk-ui/tool-approval.sse', 'openai-responses/mcp-approval.sse'])
      expect(statusesOf(readFileSync(providerFixturePath(fixture)))).toMatchObject({
        kind: 'paused',
        label: 'awaiting approval',
        reason: 'The run paused on awaiting_frontend_tools and waits for approvals.',
      });
    // Must not: a call for its result is a tool to answer.
    expect(statusesOf(readFileSync(providerFixturePath('ai-sdk-ui/client-tool.sse'))).label).toBe('awaiting tools');
  });

  it('stopped and failed come from how the source ended', () => {
    const result = decodeLegs([[{ bytes: encodeUtf8(text('a')) }]]);
    expect(statusOf(result, { kind: 'stopped' })).toMatchObject({ kind: 'stopped', label: 'stopped' });
    expect(
      endStatusOf({
        stream: null,
        openBlocks: [],
        abandonedBlocks: [],
        awaitingTools: false,
        outcome: { kind: 'failed', message: 'Connection refused' },
      }),
    ).toEqual({ kind: 'failed', label: 'failed', reason: 'Connection refused' });
    // A failure after events arrived is a cut stream, with the failure as the reason.
    expect(statusOf(result, { kind: 'failed', message: 'socket hang up' })).toMatchObject({
      kind: 'truncated',
      reason: expect.stringContaining('socket hang up') as unknown,
    });
  });

  it.each([
    ['anthropic-messages/text-citations.sse', 'done', /^The stream ended with message_stop\.$/],
    // A client tool call: the message waits for its result.
    ['anthropic-messages/tool-use.sse', 'paused', /awaiting_frontend_tools/],
    ['anthropic-messages/cut.sse', 'truncated', /^The stream ended after \d+ events without message_stop\.$/],
    [
      'anthropic-messages/error-midstream.sse',
      'error',
      /^The stream ended with an error in event 3: api_error: Internal server error$/,
    ],
    ['openai-responses/text-annotations.sse', 'done', /^The stream ended with response\.completed\.$/],
    ['openai-responses/failed.sse', 'error', /server_error: The model failed to generate a response/],
    [
      'openai-responses/incomplete.sse',
      'incomplete',
      /^The stream ended with response\.incomplete, but the output was cut short in event \d+: incomplete_details\.reason "max_output_tokens"\.$/,
    ],
    [
      'anthropic-messages/max-tokens.sse',
      'incomplete',
      // The message_delta that stopped it (event 5), not the message_stop after it (6).
      /^The stream ended with message_stop, but the output was cut short in event 5: stop_reason "max_tokens" \(the max_tokens limit\)\.$/,
    ],
    ['openai-responses/error.sse', 'error', /rate_limit_exceeded: /],
    [
      'openai-responses/cut.sse',
      'truncated',
      /^The stream ended after \d+ events without response\.completed, response\.failed or response\.incomplete\.$/,
    ],
  ])('a dialect with its own terminal event declares it through onStreamEnd: %s is %s', (name, kind, reason) => {
    const status = statusesOf(readFileSync(providerFixturePath(name)));
    expect(status.kind).toBe(kind);
    expect(status.reason).toMatch(reason);
  });

  it('every dialect that ends its streams with an event of its own names it', () => {
    const unnamed = DIALECTS.filter((d) => d.terminator === 'dialect' && !d.terminalEvent).map((d) => d.id);
    expect(unnamed).toEqual([]);
  });

  it.each([
    ['ag-ui/cut.sse', 'RUN_FINISHED or RUN_ERROR'],
    ['ai-sdk-ui/cut.sse', 'a finish part (in the v4 data stream, a d: line)'],
    ['ai-sdk-ui/cut.txt', 'a finish part (in the v4 data stream, a d: line)'],
    ['gemini/cut.sse', 'a chunk with a finishReason'],
    // The dialect names the end of the protocol its events showed, not both (DialectDecoder.awaitedEnd).
    ['json-rpc/mcp-cut.sse', 'its response'],
    ['json-rpc/a2a-cut.sse', 'its final status update'],
    ['openai-chat/cut.sse', 'data: [DONE]'],
  ])('a cut %s says what it waited for: %s', (name, awaited) => {
    const status = statusesOf(readFileSync(providerFixturePath(name)));
    expect(status).toMatchObject({ kind: 'truncated' });
    expect(status.reason.replace(/after \d+ events?/, 'after N events')).toBe(
      `The stream ended after N events without ${awaited}.`,
    );
  });
});

describe('end status of a stream with no terminal event: says whose word that is', () => {
  it.each([
    [
      'a JSON stream no dialect claims',
      'data: {"tick": 1}\n\ndata: {"tick": 2}\n\n',
      'no dialect says how this stream should end',
    ],
    [
      'an MCP GET stream of server messages, which its dialect finds has none',
      'data: {"jsonrpc":"2.0","method":"notifications/tools/list_changed"}\n\n',
      'its protocol gives a stream like this one no terminal event',
    ],
  ])('%s is "ended"', (_name, stream, why) => {
    const status = statusesOf(encodeUtf8(stream));
    expect(status.kind).toBe('ended');
    expect(status.reason).toMatch(
      new RegExp(`^The body ended between events, after \\d events?; ${why}, so nothing more is claimed\\.$`),
    );
  });
});
