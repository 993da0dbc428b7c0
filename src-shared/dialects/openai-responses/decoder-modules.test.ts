import { describe, expect, it } from 'vitest';
import type { Diagnostic, DiagnosticInit } from '../../diagnostics/types';
import { unified } from '../../envelope/unified';
import type { EnvelopeInit } from '../../envelope/types';
import type { Frame } from '../../sse/types';
import { MessageClock } from '../provider/message-summary';
import { ProviderEventContext } from '../provider/event-context';
import { checkAnnotations, isSameDelta, partKey, type OpenPart } from './content-parts';
import { emitItem, toolOf, type OpenItem } from './item-blocks';
import { SequenceNumbers } from './sequence-numbers';
import { recordTerminalOutcome } from './terminal-outcome';

const frame = (seq: number): Frame => ({
  seq,
  byteStart: seq * 10,
  byteEnd: seq * 10 + 9,
  chunkFirst: 0,
  chunkLast: 0,
  receivedAt: 1000 + seq,
  event: '',
  data: '{}',
  id: '',
  dataLines: 1,
  maxDataLineBytes: 2,
});

/** A real event context whose findings and envelopes are collected. */
function context(seq = 3): {
  ctx: ProviderEventContext;
  findings: (DiagnosticInit | Diagnostic)[];
  envelopes: EnvelopeInit[];
} {
  const findings: (DiagnosticInit | Diagnostic)[] = [];
  const envelopes: EnvelopeInit[] = [];
  const ctx = new ProviderEventContext(
    frame(seq),
    { onEnvelope: (e) => envelopes.push(e), onDiagnostic: (d) => findings.push(d) },
    'resp_1',
  );
  return { ctx, findings, envelopes };
}

const part = (annotations: OpenPart['annotations'], text: string[] = []): OpenPart => ({
  key: '0:0',
  type: 'output_text',
  envelopeType: 'text',
  channel: 'output_text',
  frame: 1,
  at: {},
  done: false,
  text,
  annotations,
});
const item = (type: string, fields: Partial<OpenItem> = {}): OpenItem => ({
  type,
  id: 'it_1',
  name: '',
  callId: '',
  frame: 1,
  at: {},
  input: [],
  phases: [],
  ranByApi: false,
  ...fields,
});

describe('content parts', () => {
  it('keys a part by output and content index, a summary part with s, and none without both indexes', () => {
    expect(partKey({ output_index: 2, content_index: 1 }, false)).toBe('2:1');
    expect(partKey({ output_index: 2, summary_index: 0 }, true)).toBe('2:s0');
    expect(partKey({ output_index: 2 }, false)).toBeUndefined();
    expect(partKey({ output_index: 2, content_index: '1' }, false)).toBeUndefined();
  });

  it('reports annotations outside the text in code points, and none inside it', () => {
    const { ctx, findings } = context();
    checkAnnotations(ctx, part([{ at: 4, start: 0, end: 3 }]), 'a😀c');
    expect(findings).toEqual([]);
    checkAnnotations(
      ctx,
      part(
        [
          { at: 4, start: 2, end: 4 },
          { at: 5, start: 3, end: 1 },
        ],
        ['ab', 'c'],
      ),
      '',
    );
    expect(findings.map((f) => f.rule)).toEqual([
      'provider.annotation-out-of-range',
      'provider.annotation-out-of-range',
    ]);
    expect(findings[0]?.message).toContain('outside the 3 characters');
  });

  it('knows a delta shares the cached unified form only when its ids, kind, channel and response match', () => {
    const event = { item_id: 'msg_1', output_index: 0, content_index: 1 };
    const cached = unified(
      'stream.content_block_delta',
      { response_id: 'resp_1', ...event },
      { kind: 'text_delta', channel: 'output_text' },
    );
    expect(isSameDelta(cached, event, 'text_delta', 'output_text', 'resp_1')).toBe(true);
    expect(isSameDelta(cached, { ...event, content_index: 2 }, 'text_delta', 'output_text', 'resp_1')).toBe(false);
    expect(isSameDelta(cached, event, 'refusal_delta', 'output_text', 'resp_1')).toBe(false);
    expect(isSameDelta(cached, event, 'text_delta', 'output_text', 'resp_2')).toBe(false);
  });
});

describe('output item blocks', () => {
  it('makes a function call of the streamed arguments and reports arguments that do not parse', () => {
    const { ctx, findings, envelopes } = context();
    emitItem(ctx, item('function_call', { name: 'get', callId: 'call_1', input: ['{"a":', '1}'] }), {
      type: 'function_call',
    });
    expect(envelopes).toMatchObject([
      { type: 'tool_call', final: true, delta: '{"a":1}', extras: { id: 'call_1', name: 'get' } },
    ]);
    expect(findings).toEqual([]);
    emitItem(ctx, item('function_call', { name: 'get' }), { type: 'function_call', arguments: '{"a":' });
    expect(findings.length).toBe(1);
  });

  it('makes a built-in call with its phases and a result, and keeps an unknown item whole', () => {
    const { ctx, envelopes } = context();
    emitItem(ctx, item('web_search_call', { phases: ['in_progress', 'completed'] }), {
      type: 'web_search_call',
      status: 'completed',
      results: [{ url: 'u' }],
    });
    expect(envelopes.map((e) => e.type)).toEqual(['server_tool_call', 'server_tool_result']);
    expect(JSON.parse(envelopes[0]?.delta ?? '')).toMatchObject({ phases: ['in_progress', 'completed'] });
    expect(envelopes[1]?.delta).toBe('[{"url":"u"}]');
    emitItem(ctx, item('hologram'), { type: 'hologram', beam: 1 });
    expect(envelopes[2]).toMatchObject({ type: 'hologram', delta: '{"type":"hologram","beam":1}' });
  });

  it('attaches a generated image to the tool result as a data URL of its format', () => {
    const { ctx, envelopes } = context();
    emitItem(ctx, item('image_generation_call'), {
      type: 'image_generation_call',
      result: 'QUJD',
      output_format: 'webp',
      status: 'completed',
    });
    expect(envelopes.map((e) => e.type)).toEqual([
      'server_tool_call',
      'tool_result',
      'tool_result_image',
      'tool_result',
    ]);
    expect(envelopes[2]?.extras).toMatchObject({ src: 'data:image/webp;base64,QUJD', media_type: 'image/webp' });
    expect(envelopes[0]?.delta).not.toContain('QUJD');
  });

  it('names the tool of each call kind', () => {
    expect(toolOf(item('function_call', { name: 'f' }), {})).toEqual({ kind: 'client', name: 'f' });
    expect(toolOf(item('mcp_call', { name: 'm' }), { server_label: 'srv' })).toEqual({
      kind: 'mcp',
      name: 'm',
      builtin: 'srv',
    });
    expect(toolOf(item('file_search_call'), {})).toEqual({ kind: 'builtin', builtin: 'file_search' });
    expect(toolOf(item('message'), {})).toBeUndefined();
  });
});

describe('sequence numbers', () => {
  it('reports a gap and a step back once each, and starts again for a new response', () => {
    const { ctx, findings } = context();
    const sequences = new SequenceNumbers();
    for (const n of [0, 1, 4, 5, 2, 3]) sequences.check(ctx, 'response.output_text.delta', n);
    expect(findings.map((f) => f.message)).toEqual([
      expect.stringContaining('jumps from 1 to 4: 2 event(s) missing'),
      expect.stringContaining('goes back from 5 to 2'),
    ]);
    sequences.restart();
    sequences.check(ctx, 'response.created', 0);
    sequences.check(ctx, 'response.in_progress', undefined);
    sequences.check(ctx, 'response.completed', 1);
    expect(findings.length).toBe(2);
  });
});

describe('terminal outcome', () => {
  it('a completed response is no failure; its status is the stop reason', () => {
    const { ctx, findings } = context();
    const clock = new MessageClock(1);
    expect(
      recordTerminalOutcome(clock, 'response.completed', { model: 'gpt-x', usage: { output_tokens: 3 } }, ctx),
    ).toEqual({ event: 'response.completed' });
    expect(clock).toMatchObject({
      model: 'gpt-x',
      status: 'completed',
      stopReason: 'completed',
      usage: { output_tokens: 3 },
    });
    expect(findings).toEqual([]);
  });

  it('a failed response is reported and ends the stream in failure, an incomplete one ends it incomplete', () => {
    const failed = context();
    expect(
      recordTerminalOutcome(
        new MessageClock(1),
        'response.failed',
        { status: 'failed', error: { code: 'server_error', message: 'boom' } },
        failed.ctx,
      ),
    ).toEqual({ event: 'response.failed', error: 'server_error: boom' });
    // Without a code, what it is: failed.
    expect(
      recordTerminalOutcome(new MessageClock(1), 'response.failed', { error: { message: 'boom' } }, context().ctx)
        .error,
    ).toBe('failed: boom');
    expect(failed.findings).toMatchObject([
      { rule: 'provider.response-failed', message: 'The response failed (server_error): boom' },
    ]);
    const incomplete = context();
    const clock = new MessageClock(1);
    expect(
      recordTerminalOutcome(
        clock,
        'response.incomplete',
        { incomplete_details: { reason: 'max_output_tokens' } },
        incomplete.ctx,
      ),
    ).toEqual({ event: 'response.incomplete', incomplete: 'incomplete_details.reason "max_output_tokens"' });
    expect(clock.stopReason).toBe('max_output_tokens');
    expect(incomplete.findings.map((f) => f.rule)).toEqual(['provider.response-incomplete']);
  });
});
