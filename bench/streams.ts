/**
 * Seeded, realistic agent streams for the benchmarks, in every wire format the demo agent
 * speaks: runs of a main agent and two concurrent sub-agents (interleaved event by event),
 * mostly 5–50-byte thinking and text deltas mixing Latin, CJK and emoji, tool calls whose
 * inputs and results reach 200 KB, cut by the formats' own chunkers. The runs are built with
 * the demo agent's scripted agents and formatters, so the bytes are what the upstream server
 * writes. A stream of any size is distinct runs one after another; `networkChunks` cuts it the
 * way sockets deliver it (1 B to 16 KB, splitting multi-byte characters).
 */
import { renderScript } from '../src-main/services/demo-agent/emit';
import { interleave, ScriptedAgent } from '../src-main/services/demo-agent/scripted-agent';
import type { Format, Step } from '../src-main/services/demo-agent/script';
import { seededUuid } from '../src-main/services/demo-agent/seeded';
import { deltasOf, logUniform, toolTurn, type Random } from '../src-main/services/demo-agent/scenarios/random-text';
import { concatBytes } from '../src-shared/bytes/held-bytes';
import { classifyControlFrame } from '../src-shared/pipeline/stream-control';
import { seededRandom } from '../src-shared/sse/rechunk';
import { listSseFixtures, readFixture, readManifest } from '../src-main/testing/fixtures';

export const STREAM_FORMATS = ['json', 'xml', 'raw'] as const satisfies readonly Format[];

/**
 * `mixed`: tool inputs and results of 100 B to 200 KB beside the deltas; `deltas`: tool
 * payloads of at most 200 B, so nearly every byte is a small text or thinking delta.
 */
export type StreamProfile = 'mixed' | 'deltas';

const MAX_PAYLOAD: Record<StreamProfile, number> = { mixed: 200_000, deltas: 200 };

/** One agent's turns: thinking, text, a tool call and its result, then a closing answer. */
function agentTurns(agent: ScriptedAgent, random: Random, turns: number, profile: StreamProfile): Step[] {
  const sizes = { thinking: [200, 4_000], text: [200, 6_000], payload: [100, MAX_PAYLOAD[profile]] } as const;
  for (let t = 0; t < turns; t++)
    toolTurn(agent, random, `toolu_bench_${agent.uuid.slice(0, 8)}_${t}`, `docs/${t}.md`, sizes);
  agent
    .turn()
    .text(deltasOf(random, logUniform(random, 500, 8_000)))
    .end('end_turn');
  return agent.finish().take();
}

/** One run: a main agent and two sub-agents whose steps interleave. `[DONE]` is left out. */
function run(seed: number, profile: StreamProfile): Step[] {
  const random = seededRandom(seed);
  const uuid = seededUuid('bench', String(seed));
  const main = new ScriptedAgent({ uuid, parent: null, prompt: 'Benchmark run', streamMeta: true }).start();
  const children = ['a', 'b'].map((name) =>
    new ScriptedAgent({
      uuid: seededUuid('bench', String(seed), name),
      parent: uuid,
      prompt: `task ${name}`,
      streamMeta: false,
    }).start(),
  );
  const head = main.take();
  const concurrent = interleave(...children.map((child) => agentTurns(child, random, 2, profile)));
  return [...head, ...concurrent, ...agentTurns(main, random, 3, profile)];
}

const encoder = new TextEncoder();
const cache = new Map<string, Uint8Array>();

/** Distinct runs in `format` one after another, to at least `bytes` bytes (cached per format and size). */
export function generateStream(format: Format, bytes: number, profile: StreamProfile = 'mixed', seed = 1): Uint8Array {
  const key = `${format}:${bytes}:${profile}:${seed}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const parts: Uint8Array[] = [];
  let total = 0;
  // Runs are made once per seed and reused past 64 distinct ones: a 1 GB stream needs ~1,000.
  const distinct: Uint8Array[] = [];
  for (let i = 0; total < bytes; i++) {
    const part =
      i < 64 ? encoder.encode(renderScript(run(seed * 1_000 + i, profile), format)) : (distinct[i % 64] as Uint8Array);
    if (i < 64) distinct.push(part);
    parts.push(part);
    total += part.length;
  }
  const out = concatBytes(parts);
  cache.set(key, out);
  return out;
}

/** Forgets the generated streams (before memory is measured). */
export function clearStreamCache(): void {
  cache.clear();
}

/** Cuts `bytes` as a socket delivers it: chunks of 1 B to 16 KB, log-uniform, seeded. */
export function networkChunks(bytes: Uint8Array, seed = 7): Uint8Array[] {
  const random = seededRandom(seed);
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = logUniform(random, 1, 16 * 1024);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

const textDecoder = new TextDecoder();

/** The fixture's events without `[DONE]` and error frames (all fixtures: one `data:` line per event). */
function contentEvents(name: string): string {
  const events = textDecoder.decode(readFixture(name)).split(/(?<=\n\n)/);
  return events
    .filter((event) => !(event.startsWith('data: ') && classifyControlFrame(event.slice(6, -2)) !== undefined))
    .join('');
}

/**
 * The upstream fixtures of one format played one after another to about `bytes` bytes: real
 * server output, `[DONE]` and error frames left out of the repeats (or every event after the
 * first `[DONE]` would be a `stream.after-done` finding).
 */
export function fixtureStream(format: Format, bytes: number): Uint8Array {
  const manifest = readManifest();
  const names = listSseFixtures().filter((name) => manifest[name]?.kind === format);
  const once = encoder.encode(names.map(contentEvents).join(''));
  const repeats = Math.max(1, Math.round(bytes / once.length));
  const out = new Uint8Array(once.length * repeats);
  for (let i = 0; i < repeats; i++) out.set(once, i * once.length);
  return out;
}

/**
 * An OpenAI Chat Completions stream of about `bytes`, as the API sends it: data-only chunks
 * with every field the API repeats in each, 50 content deltas from `words` then a tool call in
 * two fragments, over and over in one choice; the finish, the usage chunk and `[DONE]`.
 */
export function chatCompletionStream(bytes: number, words: readonly string[]): Uint8Array {
  const head = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1735689600,
    model: 'gpt-4o-2024-08-06',
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage?: unknown): string =>
    `data: ${JSON.stringify({ ...head, system_fingerprint: 'fp_bench', choices: usage ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  const out: string[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  let size = 0;
  for (let call = 0; size < bytes; call++) {
    const start = out.length;
    for (let i = 0; i < 50; i++) out.push(chunk({ content: words[(call + i) % words.length] }));
    out.push(
      chunk({
        tool_calls: [{ index: call, id: `call_${call}`, type: 'function', function: { name: 'f', arguments: '' } }],
      }),
    );
    out.push(chunk({ tool_calls: [{ index: call, function: { arguments: `{"q":"${call}"}` } }] }));
    size += out.slice(start).reduce((n, s) => n + s.length, 0);
  }
  out.push(
    chunk({}, 'tool_calls'),
    chunk({}, null, { prompt_tokens: 10, completion_tokens: 1000, total_tokens: 1010 }),
  );
  out.push('data: [DONE]\n\n');
  return encoder.encode(out.join(''));
}

/**
 * An AG-UI stream of about `bytes` (one run, data-only events), of the provider bench's shape
 * (bench/providers.bench.ts): text messages of 50 TEXT_MESSAGE_CONTENT deltas, each followed by
 * a tool call (start, two argument pieces, end). Ids are UUIDs, as the SDKs and the frameworks
 * built on them mint message, call and run ids.
 */
export function agUiStream(bytes: number, words: readonly string[]): Uint8Array {
  const data = (event: Record<string, unknown>): string => `data: ${JSON.stringify(event)}\n\n`;
  let ids = 0;
  const uuid = (): string => seededUuid('ag-ui bench', String(ids++));
  const run = { threadId: uuid(), runId: uuid() };
  const out: string[] = [data({ type: 'RUN_STARTED', ...run })];
  let size = 0;
  for (let turn = 0; size < bytes; turn++) {
    const start = out.length;
    const messageId = uuid();
    const toolCallId = uuid();
    out.push(data({ type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' }));
    for (let i = 0; i < 50; i++)
      out.push(data({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta: words[(turn + i) % words.length] }));
    out.push(
      data({ type: 'TEXT_MESSAGE_END', messageId }),
      data({ type: 'TOOL_CALL_START', toolCallId, toolCallName: 'f', parentMessageId: messageId }),
      data({ type: 'TOOL_CALL_ARGS', toolCallId, delta: '{"q": "' }),
      data({ type: 'TOOL_CALL_ARGS', toolCallId, delta: `${turn}"}` }),
      data({ type: 'TOOL_CALL_END', toolCallId }),
    );
    size += out.slice(start).reduce((n, s) => n + s.length, 0);
  }
  out.push(data({ type: 'RUN_FINISHED', ...run, usage: [{ inputTokens: 10, outputTokens: 1000 }] }));
  return encoder.encode(out.join(''));
}

/**
 * A Gemini stream of about `bytes` over SSE (CRLF, as the API frames it): chunks of a dozen
 * `words` with the running usage as the API writes it (prompt details, thought tokens), as the
 * recorded streams of resources/fixtures/external have them, a function call every 50 chunks.
 */
export function geminiStream(bytes: number, words: readonly string[]): Uint8Array {
  const out: string[] = [];
  let size = 0;
  const chunk = (parts: unknown[], n: number, extra: Record<string, unknown> = {}): void => {
    const text = `data: ${JSON.stringify({
      candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }],
      usageMetadata: {
        promptTokenCount: 10,
        candidatesTokenCount: n,
        totalTokenCount: 10 + n + 185,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: 10 }],
        thoughtsTokenCount: 185,
      },
      modelVersion: 'gemini-bench',
      responseId: 'resp-bench',
    })}\r\n\r\n`;
    out.push(text);
    size += text.length;
  };
  for (let n = 0; size < bytes; n++) {
    chunk([{ text: Array.from({ length: 12 }, (_, i) => words[(n + i) % words.length]).join('') }], n);
    if (n % 50 === 49) chunk([{ functionCall: { name: 'f', args: { q: String(n) } } }], n);
  }
  chunk([{ text: '' }], 0, { finishReason: 'STOP' });
  return encoder.encode(out.join(''));
}

/**
 * An AI SDK stream to a `useChat` frontend of about `bytes`, in either wire: one message of
 * text parts of 50 deltas alternating with tool calls whose input streams and whose output
 * follows, as `streamText` writes them, its text from `words` (`wire: 'ui'`: the UI message stream, JSON chunks as SSE
 * events; `'data'`: the v4 data stream, `CODE:JSON` lines).
 */
export function aiSdkStream(wire: 'ui' | 'data', bytes: number, words: readonly string[]): Uint8Array {
  const out: string[] = [];
  const chunk = (fields: Record<string, unknown>) => out.push(`data: ${JSON.stringify(fields)}\n\n`);
  const line = (code: string, value: unknown) => out.push(`${code}:${JSON.stringify(value)}\n`);
  if (wire === 'ui') {
    chunk({ type: 'start', messageId: 'msg-bench' });
    chunk({ type: 'start-step' });
  } else line('f', { messageId: 'msg-bench' });
  let size = 0;
  for (let n = 0; size < bytes; n++) {
    const start = out.length;
    const id = `txt-${n}`;
    const call = `call_${n}`;
    if (wire === 'ui') chunk({ type: 'text-start', id });
    for (let i = 0; i < 50; i++) {
      const delta = words[(n + i) % words.length];
      if (wire === 'ui') chunk({ type: 'text-delta', id, delta });
      else line('0', delta);
    }
    if (wire === 'ui') {
      chunk({ type: 'text-end', id });
      chunk({ type: 'tool-input-start', toolCallId: call, toolName: 'f' });
      chunk({ type: 'tool-input-delta', toolCallId: call, inputTextDelta: '{"q": "' });
      chunk({ type: 'tool-input-delta', toolCallId: call, inputTextDelta: `${n}"}` });
      chunk({ type: 'tool-input-available', toolCallId: call, toolName: 'f', input: { q: String(n) } });
      chunk({ type: 'tool-output-available', toolCallId: call, output: { ok: n } });
    } else {
      line('b', { toolCallId: call, toolName: 'f' });
      line('c', { toolCallId: call, argsTextDelta: '{"q": "' });
      line('c', { toolCallId: call, argsTextDelta: `${n}"}` });
      line('9', { toolCallId: call, toolName: 'f', args: { q: String(n) } });
      line('a', { toolCallId: call, result: { ok: n } });
    }
    size += out.slice(start).reduce((total, s) => total + s.length, 0);
  }
  const usage = { inputTokens: 10, outputTokens: 1000 };
  if (wire === 'ui') {
    chunk({ type: 'finish-step' });
    chunk({ type: 'finish', finishReason: 'stop', messageMetadata: { totalUsage: usage } });
    out.push('data: [DONE]\n\n');
  } else line('d', { finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 1000 } });
  return encoder.encode(out.join(''));
}

/**
 * An Ollama `/api/chat` stream of about `bytes` (NDJSON, one chunk per line, as its server
 * writes them): a token of `words` per line with the model and its time, a line of one whole
 * tool call every 50 tokens, and the done line with its counts and durations.
 */
export function ollamaStream(bytes: number, words: readonly string[]): Uint8Array {
  const out: string[] = [];
  let size = 0;
  const line = (n: number, fields: Record<string, unknown>): void => {
    const at = new Date(Date.UTC(2025, 0, 1, 12) + 20 * n).toISOString().replace('Z', '123456Z');
    const text = `${JSON.stringify({ model: 'llama3.2', created_at: at, ...fields })}\n`;
    out.push(text);
    size += text.length;
  };
  let n = 0;
  for (; size < bytes; n++) {
    line(n, { message: { role: 'assistant', content: words[n % words.length] }, done: false });
    if (n % 50 === 49)
      line(n, {
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [{ function: { name: 'f', arguments: { q: `${n}` } } }],
        },
        done: false,
      });
  }
  line(n, {
    message: { role: 'assistant', content: '' },
    done: true,
    done_reason: 'stop',
    total_duration: 5_000_000_000,
    load_duration: 10_000_000,
    prompt_eval_count: 26,
    prompt_eval_duration: 100_000_000,
    eval_count: n,
    eval_duration: 4_800_000_000,
  });
  return encoder.encode(out.join(''));
}
