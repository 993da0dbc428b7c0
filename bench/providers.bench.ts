/**
 * The provider dialects (Anthropic Messages, OpenAI Responses, OpenAI Chat Completions, JSON-RPC, AG-UI, Gemini, the AI SDK's two wires…) through the whole shared
 * decoder against the floor measured in the same process on the same chunks (line splitting,
 * UTF-8 decoding and JSON.parse of each data line): one long message of small text deltas
 * with a tool call every 50 deltas, as the APIs stream them, cut into 1 B–16 KB chunks.
 * Reported: throughput as a fraction of the floor, and time per MB at the large size
 * against the small one (linear: within 1.2x).
 */
import { encodeUtf8 } from '../src-shared/text/utf8';
import { decodeKeeping } from './decode.bench';
import { linesFloor } from './floors';
import type { BenchOptions, BenchTable } from './run';
import { agUiStream, aiSdkStream, chatCompletionStream, geminiStream, networkChunks, ollamaStream } from './streams';
import { alternate } from './timing';

const MB = 1024 * 1024;
const WORDS = ['the ', 'stream ', 'inspector ', 'décode ', 'chaque ', 'événement ', '— ', '数据 ', 'ok, ', '"quoted" '];

const sse = (type: string, data: Record<string, unknown>): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** An Anthropic Messages stream of about `bytes`: text blocks of 50 deltas alternating with tool_use blocks. */
function anthropicStream(bytes: number): Uint8Array {
  const out: string[] = [
    sse('message_start', { message: { id: 'msg_bench', model: 'bench', usage: { input_tokens: 10 } } }),
  ];
  let size = 0;
  for (let index = 0; size < bytes; index += 2) {
    out.push(sse('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (let i = 0; i < 50; i++)
      out.push(
        sse('content_block_delta', { index, delta: { type: 'text_delta', text: WORDS[(index + i) % WORDS.length] } }),
      );
    out.push(sse('content_block_stop', { index }));
    out.push(
      sse('content_block_start', {
        index: index + 1,
        content_block: { type: 'tool_use', id: `toolu_${index}`, name: 'f', input: {} },
      }),
    );
    out.push(
      sse('content_block_delta', { index: index + 1, delta: { type: 'input_json_delta', partial_json: '{"q": "' } }),
      sse('content_block_delta', { index: index + 1, delta: { type: 'input_json_delta', partial_json: `${index}"}` } }),
    );
    out.push(sse('content_block_stop', { index: index + 1 }));
    size += out.slice(-56).reduce((n, s) => n + s.length, 0);
  }
  out.push(
    sse('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1000 } }),
    sse('message_stop', {}),
  );
  return encodeUtf8(out.join(''));
}

/** An OpenAI Responses stream of about `bytes`: message items of 50 deltas alternating with function calls. */
function openAiStream(bytes: number): Uint8Array {
  const out: string[] = [];
  let seq = 0;
  const add = (type: string, data: Record<string, unknown>): void =>
    void out.push(sse(type, { ...data, sequence_number: seq++ }));
  add('response.created', { response: { id: 'resp_bench', status: 'in_progress', model: 'bench' } });
  let size = 0;
  for (let output = 0; size < bytes; output += 2) {
    const start = out.length;
    const ids = { item_id: `msg_${output}`, output_index: output, content_index: 0 };
    add('response.output_item.added', {
      output_index: output,
      item: { id: `msg_${output}`, type: 'message', content: [] },
    });
    add('response.content_part.added', { ...ids, part: { type: 'output_text', text: '' } });
    for (let i = 0; i < 50; i++)
      add('response.output_text.delta', { ...ids, delta: WORDS[(output + i) % WORDS.length] });
    add('response.output_text.done', { ...ids, text: '' });
    add('response.content_part.done', { ...ids, part: { type: 'output_text' } });
    add('response.output_item.done', { output_index: output, item: { id: `msg_${output}`, type: 'message' } });
    const call = { id: `fc_${output}`, type: 'function_call', call_id: `call_${output}`, name: 'f', arguments: '' };
    add('response.output_item.added', { output_index: output + 1, item: call });
    add('response.function_call_arguments.delta', {
      item_id: call.id,
      output_index: output + 1,
      delta: `{"q":"${output}"}`,
    });
    add('response.output_item.done', { output_index: output + 1, item: { ...call, arguments: `{"q":"${output}"}` } });
    size += out.slice(start).reduce((n, s) => n + s.length, 0);
  }
  add('response.completed', {
    response: { id: 'resp_bench', status: 'completed', usage: { input_tokens: 10, output_tokens: 1000 } },
  });
  return encodeUtf8(out.join(''));
}

/**
 * An A2A `message/stream` of about `bytes` (the json-rpc dialect's hot path): a task, then
 * artifacts of 50 small text chunks each (append, the last with lastChunk), a working status
 * update with a message between artifacts, and the final status. Every event is a whole
 * JSON-RPC response, as a2a-sdk writes them (`data:` lines only).
 */
function jsonRpcStream(bytes: number): Uint8Array {
  const event = (result: Record<string, unknown>): string =>
    `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n\n`;
  const task = { taskId: 'task-bench', contextId: 'ctx-bench' };
  const out = [event({ kind: 'task', id: task.taskId, contextId: task.contextId, status: { state: 'submitted' } })];
  let size = 0;
  for (let artifact = 0; size < bytes; artifact++) {
    const start = out.length;
    for (let i = 0; i < 50; i++)
      out.push(
        event({
          kind: 'artifact-update',
          ...task,
          artifact: {
            artifactId: `a${artifact}`,
            parts: [{ kind: 'text', text: WORDS[(artifact + i) % WORDS.length] }],
          },
          append: i > 0,
          lastChunk: i === 49,
        }),
      );
    out.push(
      event({
        kind: 'status-update',
        ...task,
        status: {
          state: 'working',
          message: { role: 'agent', parts: [{ kind: 'text', text: `artifact ${artifact} done` }] },
        },
        final: false,
      }),
    );
    size += out.slice(start).reduce((n, s) => n + s.length, 0);
  }
  out.push(event({ kind: 'status-update', ...task, status: { state: 'completed' }, final: true }));
  return encodeUtf8(out.join(''));
}

const decode = (chunks: readonly Uint8Array[]): number => decodeKeeping(chunks).envelopes;

const STREAMS = {
  'anthropic-messages': anthropicStream,
  'openai-responses': openAiStream,
  'openai-chat': (bytes: number) => chatCompletionStream(bytes, WORDS),
  'json-rpc': jsonRpcStream,
  'ag-ui': (bytes: number) => agUiStream(bytes, WORDS),
  gemini: (bytes: number) => geminiStream(bytes, WORDS),
  'ai-sdk-ui (UI message stream)': (bytes: number) => aiSdkStream('ui', bytes, WORDS),
  'ai-sdk-ui (v4 data stream)': (bytes: number) => aiSdkStream('data', bytes, WORDS),
  ollama: (bytes: number) => ollamaStream(bytes, WORDS),
} as const;
/**
 * Fraction of the floor each dialect must reach at the large size: the Anthropic and OpenAI
 * streams, whose text deltas the dialects read without JSON.parse, at least the floor; every
 * other dialect 0.6.
 */
const TARGET_OF_FLOOR: Readonly<Record<string, number>> = {
  'anthropic-messages': 1.0,
  'openai-responses': 1.0,
  'openai-chat': 1.0,
};
const OTHER_TARGET = 0.6;
/** Decodes of each stream before the timed rounds (besides alternate's own warm-up). */
const WARM_UP_RUNS = 3;

export function run({ quick }: BenchOptions): BenchTable[] {
  const [small, large, rounds] = quick ? [1, 4, 3] : [2, 32, 5];
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const [dialect, generate] of Object.entries(STREAMS)) {
    const perMb: number[] = [];
    let ofFloor = 0;
    for (const sizeMb of [small, large]) {
      const bytes = generate(sizeMb * MB);
      const chunks = networkChunks(bytes);
      // Warm-up beyond alternate's one run: the whole decoder is a lot of code for V8 to
      // optimise, and its compiler threads' CPU time would count in the first rounds (the floor
      // is a few lines, optimised at once). The figure is the decoder's steady throughput.
      for (let i = 0; i < WARM_UP_RUNS; i++) decode(chunks);
      const timed = alternate(
        () => decode(chunks),
        () => linesFloor(chunks),
        rounds,
      );
      perMb.push(timed.oursMs / (bytes.length / MB));
      rows.push([
        dialect,
        (bytes.length / MB).toFixed(1),
        timed.ours,
        (bytes.length / MB / (timed.oursMs / 1000)).toFixed(1),
        (bytes.length / MB / (timed.floorMs / 1000)).toFixed(1),
        (1 / timed.ratio).toFixed(2),
      ]);
      ofFloor = 1 / timed.ratio;
    }
    const target = TARGET_OF_FLOOR[dialect] ?? OTHER_TARGET;
    notes.push(
      `${dialect}: ${ofFloor.toFixed(2)} of the floor at ${large} MB (target >= ${target}: ${ofFloor >= target ? 'met' : 'MISSED'})`,
    );
    const growth = (perMb[1] ?? 0) / (perMb[0] ?? 1);
    notes.push(
      `${dialect}: time per MB at ${large} MB is ${growth.toFixed(2)}x that at ${small} MB (linear: within 1.2x: ${growth <= 1.2 ? 'met' : 'MISSED'})`,
    );
  }
  return [
    {
      title: `Provider dialects through the whole decoder against the floor (medians of ${rounds} alternating rounds, 1 B–16 KB chunks)`,
      columns: ['dialect', 'MB', 'envelopes', 'decoder MB/s', 'floor MB/s', 'of floor'],
      rows,
      notes: [
        ...notes,
        'floor: line splitting + UTF-8 decoding + JSON.parse of each JSON data line (a v4 data stream line: its JSON after CODE:).',
      ],
    },
  ];
}
