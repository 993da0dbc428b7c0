import { describe, expect, it } from 'vitest';
import { rulesOf } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import { encodeUtf8 } from '../../text/utf8';
import { OLLAMA_RULES } from './rules';

/** An Ollama NDJSON body of these lines (objects written as JSON, text as it is). */
const stream = (...lines: unknown[]) =>
  decodeBytes(encodeUtf8(lines.map((l) => `${typeof l === 'string' ? l : JSON.stringify(l)}\n`).join('')));

const line = (fields: Record<string, unknown>) => ({
  model: 'llama3.2',
  created_at: '2025-01-01T00:00:00Z',
  ...fields,
});
const text = (content: string, model = 'llama3.2') =>
  line({ model, message: { role: 'assistant', content }, done: false });
const done = (reason = 'stop') =>
  line({ message: { role: 'assistant', content: '' }, done_reason: reason, done: true, eval_count: 2 });
const tool = (args: unknown) =>
  line({
    message: { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: args } }] },
    done: false,
  });
const severity = (result: ReturnType<typeof stream>, rule: string) =>
  result.diagnostics.find((d) => d.rule === rule)?.severity;
/** What the decoder says (reconstruction's findings about blocks left open and calls without results aside). */
const ruleIds = (result: ReturnType<typeof stream>) =>
  rulesOf(result).filter((r) => !r.startsWith('tool.') && !r.startsWith('block.'));

describe("the Ollama dialect's rules", () => {
  it('every rule is the dialect’s own', () => {
    for (const rule of Object.values(OLLAMA_RULES)) expect(rule.dialects).toEqual(['ollama']);
  });

  it('must not: a whole stream, chat or generate, with or without done_reason, says nothing and ends done', () => {
    const generate = line({ response: 'Hi', done: false });
    for (const result of [
      stream(text('Hi'), text(' there'), done()),
      stream(generate, line({ response: '', done: true, done_reason: 'stop', context: [1, 2] })),
      stream(text('Hi'), line({ message: { role: 'assistant', content: '' }, done: true })),
      stream(tool({ city: 'Paris' }), done()),
      stream(done('load')),
    ]) {
      expect(ruleIds(result)).toEqual([]);
      expect(result.formats).toEqual(['ollama']);
      expect(result.ends[0]?.stream).toMatchObject({ error: null });
      expect(result.ends[0]?.stream.terminal).not.toBeNull();
      expect(result.ends[0]?.stream.incomplete ?? null).toBeNull();
    }
  });

  it('provider.missing-terminal: no done line (error); the stream is truncated, never complete', () => {
    const result = stream(text('Hi'), text(' there'));
    expect(ruleIds(result)).toEqual(['provider.missing-terminal']);
    expect(severity(result, 'provider.missing-terminal')).toBe('error');
    expect(result.ends[0]?.stream.terminal).toBeNull();
  });

  it('ollama.after-done: a line after the done line (warning), decoded as a further response', () => {
    const result = stream(text('Hi'), done(), text('late'), done());
    expect(ruleIds(result)).toEqual(['ollama.after-done']);
    expect(severity(result, 'ollama.after-done')).toBe('warning');
    expect(result.diagnostics[0]?.at.frame).toBe(2);
    expect(result.blocks.filter((b) => b.kind === 'message')).toHaveLength(2);
    // Without its own done line the further response is cut: the stream is not over.
    expect(ruleIds(stream(text('Hi'), done(), text('late')))).toEqual([
      'ollama.after-done',
      'provider.missing-terminal',
    ]);
  });

  it('must not (after-done): one response to its done line, or an error line after it, says nothing of it', () => {
    expect(ruleIds(stream(text('Hi'), done()))).toEqual([]);
    expect(ruleIds(stream(text('Hi'), done(), { error: 'late' }))).toEqual(['provider.api-error']);
  });

  it('ollama.model-changed: a line naming another model (warning), once per response', () => {
    const result = stream(text('Hi'), text(' there', 'mistral'), text('!', 'qwen3'), done());
    expect(ruleIds(result)).toEqual(['ollama.model-changed']);
    expect(severity(result, 'ollama.model-changed')).toBe('warning');
    expect(result.diagnostics[0]?.at.frame).toBe(1);
    expect(result.blocks.find((b) => b.kind === 'message')?.parsed).toMatchObject({ model: 'llama3.2' });
  });

  it('must not (model-changed): the same model on every line, or a line without model', () => {
    expect(ruleIds(stream(text('Hi'), { message: { content: 'x' }, done: false }, done()))).toEqual([]);
  });

  it('provider.api-error: an error line (error), mid-stream or as the whole body given the URL; the stream ends by error', () => {
    const result = stream(text('Hi'), { error: 'model runner has unexpectedly stopped' });
    expect(ruleIds(result)).toEqual(['provider.api-error']);
    expect(severity(result, 'provider.api-error')).toBe('error');
    expect(result.ends[0]?.stream.error?.message).toBe('model runner has unexpectedly stopped');
  });

  it('provider.api-error as the first line says no output came before it, not that the request was accepted', () => {
    const alone = decodeBytes(encodeUtf8('{"error":"model \\"bad_model\\" not found, try pulling it first"}\n'), {
      format: 'ollama',
    });
    expect(alone.diagnostics.map((d) => d.message)).toEqual([
      'Ollama sent an error in line 0 as its first line, before any output: model "bad_model" not found, try pulling it first',
    ]);
  });

  it('must not (api-error): a chunk whose message says "error" is text', () => {
    expect(ruleIds(stream(text('error'), done()))).toEqual([]);
  });

  it('provider.response-incomplete: done_reason length (warning); the stream ends incomplete', () => {
    const result = stream(text('Hi'), done('length'));
    expect(ruleIds(result)).toEqual(['provider.response-incomplete']);
    expect(severity(result, 'provider.response-incomplete')).toBe('warning');
    expect(result.ends[0]?.stream.incomplete).not.toBeNull();
  });

  it('must not (response-incomplete): stop, load, unload; an unknown reason is said once, as unknown', () => {
    for (const reason of ['stop', 'load', 'unload'])
      expect(ruleIds(stream(text('Hi'), done(reason))), reason).toEqual([]);
    expect(ruleIds(stream(text('Hi'), done('shutdown')))).toEqual(['provider.unknown-event']);
  });

  it('provider.tool-args-invalid: arguments that are no object (error), the call kept', () => {
    for (const args of ['{"city":"Paris"}', ['Paris'], 42]) {
      const result = stream(tool(args), done());
      expect(ruleIds(result), JSON.stringify(args)).toEqual(['provider.tool-args-invalid']);
      expect(severity(result, 'provider.tool-args-invalid')).toBe('error');
      expect(result.blocks.filter((b) => b.kind === 'tool_call')).toHaveLength(1);
    }
  });

  it('must not (tool-args-invalid): object arguments, empty or not, and a call without arguments', () => {
    expect(
      ruleIds(
        stream(
          tool({}),
          tool({ a: [1] }),
          line({ message: { tool_calls: [{ function: { name: 'g' } }] }, done: false }),
          done(),
        ),
      ),
    ).toEqual([]);
  });

  it('provider.invalid-event: a line that is no JSON, or no chunk (error); its bytes stay, undecoded', () => {
    const result = stream(
      text('Hi'),
      '{"model":"llama3.2","message":{"content":"cu',
      '[1,2]',
      '{"status":"pulling"}',
      done(),
    );
    expect(ruleIds(result)).toEqual(['provider.invalid-event', 'provider.invalid-event', 'provider.invalid-event']);
    expect(severity(result, 'provider.invalid-event')).toBe('error');
    const undecoded = result.envelopes.filter((e) => e.control === 'undecoded').map((e) => e.delta);
    expect(undecoded).toEqual(['{"model":"llama3.2","message":{"content":"cu', '[1,2]', '{"status":"pulling"}']);
  });
});
