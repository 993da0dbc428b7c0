import { isJsonObject } from '../../json/values';
import type { Faulted, FaultKind } from '../../testing/faults';

/**
 * Faults of Chat Completions streams for the fault suite (src-shared/testing/faults.ts): each
 * breaks one rule the dialect reports, at one chunk of a clean stream, where the finding must
 * point. Clean streams are data-only chunks ending at `[DONE]`.
 */

type Chunk = Record<string, unknown>;
const DIALECTS = ['openai-chat'] as const;

const sse = (data: string): string => `data: ${data}\n\n`;

function parse(data: string): Chunk | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The first choice of a chunk, and its delta. */
function firstChoice(chunk: Chunk | undefined): { choice: Chunk; delta: Chunk } | undefined {
  const choices = chunk?.['choices'];
  const choice: unknown = Array.isArray(choices) ? choices[0] : undefined;
  if (!isJsonObject(choice)) return undefined;
  return { choice, delta: isJsonObject(choice['delta']) ? choice['delta'] : {} };
}

/** The chunks whose first choice passes `test`. */
const chunksWhere =
  (test: (choice: Chunk, delta: Chunk) => boolean) =>
  (events: readonly string[]): number[] =>
    events.flatMap((data, i) => {
      const first = firstChoice(parse(data));
      return first && test(first.choice, first.delta) ? [i] : [];
    });

const finishes = chunksWhere((choice) => typeof choice['finish_reason'] === 'string');
const texts = chunksWhere((_, delta) => typeof delta['content'] === 'string' && delta['content'] !== '');
const toolCalls = (test: (call: Chunk) => boolean) =>
  chunksWhere(
    (_, delta) =>
      Array.isArray(delta['tool_calls']) && isJsonObject(delta['tool_calls'][0]) && test(delta['tool_calls'][0]),
  );

/** The stream with chunk `site`'s first choice changed by `change`; the finding points at it. */
function changed(events: readonly string[], site: number, change: (choice: Chunk, delta: Chunk) => void): Faulted {
  const chunk = parse(events[site] ?? '') ?? {};
  const first = firstChoice(chunk);
  if (first) change(first.choice, first.delta);
  return { parts: events.map((data, i) => sse(i === site ? JSON.stringify(chunk) : data)), target: site };
}

function inserted(events: readonly string[], site: number, data: string): Faulted {
  return { parts: [...events.slice(0, site).map(sse), sse(data), ...events.slice(site).map(sse)], target: site };
}

export const OPENAI_CHAT_FAULTS: readonly FaultKind[] = [
  {
    rule: 'openai-chat.invalid-chunk',
    name: 'chunk whose choices are no array',
    dialects: DIALECTS,
    sites: texts,
    apply: (events, site) => inserted(events, site, '{"object":"chat.completion.chunk","choices":7}'),
  },
  {
    rule: 'openai-chat.tool-calls-not-array',
    name: 'tool_calls sent as the one call object, not an array (TGI 2.x)',
    dialects: DIALECTS,
    sites: chunksWhere(
      (_, delta) =>
        Array.isArray(delta['tool_calls']) && delta['tool_calls'].length === 1 && isJsonObject(delta['tool_calls'][0]),
    ),
    apply: (events, site) =>
      changed(events, site, (_, delta) => void (delta['tool_calls'] = (delta['tool_calls'] as Chunk[])[0])),
  },
  {
    rule: 'openai-chat.no-finish-reason',
    name: 'finish_reason dropped',
    dialects: DIALECTS,
    sites: finishes,
    apply: (events, site) => changed(events, site, (choice) => void (choice['finish_reason'] = null)),
  },
  {
    rule: 'stream.missing-done',
    name: 'data: [DONE] dropped',
    dialects: DIALECTS,
    sites: (events) => events.flatMap((data, i) => (data === '[DONE]' ? [i] : [])),
    apply: (events, site) => ({ parts: events.filter((_, i) => i !== site).map(sse), target: 'end' }),
  },
  {
    rule: 'provider.api-error',
    name: 'error object instead of the rest of the stream',
    dialects: DIALECTS,
    sites: texts,
    apply: (events, site) => ({
      parts: [...events.slice(0, site).map(sse), sse('{"error":{"message":"Overloaded","type":"server_error"}}')],
      target: site,
    }),
  },
  {
    rule: 'provider.response-incomplete',
    name: 'finish_reason length',
    dialects: DIALECTS,
    sites: finishes,
    apply: (events, site) => changed(events, site, (choice) => void (choice['finish_reason'] = 'length')),
  },
  {
    rule: 'provider.delta-after-stop',
    name: 'content after the finish_reason',
    dialects: DIALECTS,
    sites: finishes,
    apply: (events, site) => {
      const index = firstChoice(parse(events[site] ?? ''))?.choice['index'];
      const late = { object: 'chat.completion.chunk', choices: [{ index, delta: { content: 'late' } }] };
      return inserted(events, site + 1, JSON.stringify(late));
    },
  },
  {
    rule: 'provider.block-not-started',
    name: 'argument fragment for a tool call index never started',
    dialects: DIALECTS,
    sites: toolCalls((call) => call['id'] === undefined),
    apply: (events, site) =>
      changed(
        events,
        site,
        (_, delta) => void ((delta['tool_calls'] as Chunk[])[0] = { index: 9, function: { arguments: '{}' } }),
      ),
  },
  {
    rule: 'provider.block-started-twice',
    name: 'second call with another id under an open index',
    dialects: DIALECTS,
    sites: toolCalls((call) => typeof call['id'] === 'string'),
    apply: (events, site) => {
      const chunk = parse(events[site] ?? '') ?? {};
      const call = (firstChoice(chunk)?.delta['tool_calls'] as Chunk[])[0] ?? {};
      call['id'] = 'call_other';
      return inserted(events, site + 1, JSON.stringify(chunk));
    },
  },
  // The arguments are checked when the call ends, at its choice's finish_reason.
  {
    rule: 'provider.tool-args-invalid',
    name: 'tool arguments that do not parse',
    dialects: DIALECTS,
    sites: toolCalls((call) => call['id'] === undefined),
    apply: (events, site) => {
      const faulted = changed(events, site, (_, delta) => {
        const fn = (delta['tool_calls'] as Chunk[])[0]?.['function'] as Chunk;
        fn['arguments'] = `${String(fn['arguments'])}"}]`;
      });
      return { ...faulted, target: finishes(events).find((i) => i > site) ?? 'end', alternative: site };
    },
  },
  {
    rule: 'provider.unknown-event',
    name: 'chunk object newer than the inspector',
    dialects: DIALECTS,
    sites: texts,
    apply: (events, site) => {
      const chunk = parse(events[site] ?? '') ?? {};
      chunk['object'] = 'chat.completion.future';
      return { parts: events.map((data, i) => sse(i === site ? JSON.stringify(chunk) : data)), target: site };
    },
  },
];
