import { isJsonObject } from '../../json/values';
import type { Faulted, FaultKind } from '../../testing/faults';

/**
 * Faults of Gemini streams for the fault suite (src-shared/testing/faults.ts): each breaks one
 * rule the dialect reports at one chunk of a clean stream, where the finding must point.
 * Clean streams are data-only chunks, the last with `finishReason: STOP`. The JSON array
 * faults rewrite the stream as the body the API sends without `alt=sse`, one part per element.
 */

type Json = Record<string, unknown>;

const event = (data: string): string => `data: ${data}\n\n`;

function parse(data: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(data);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const indexes = (events: readonly string[], test: (data: string, i: number) => boolean): number[] =>
  events.flatMap((data, i) => (test(data, i) ? [i] : []));

/** The stream with chunk `site` replaced by `replacement` (SSE text of zero or more events). */
const replaced = (events: readonly string[], site: number, ...replacement: string[]): string[] => [
  ...events.slice(0, site).map(event),
  ...replacement,
  ...events.slice(site + 1).map(event),
];

/** Chunk `site` with `inserted` (SSE text) before it; the finding points at the insertion. */
const insertedBefore = (events: readonly string[], site: number, inserted: string): Faulted => ({
  parts: [...events.slice(0, site).map(event), inserted, ...events.slice(site).map(event)],
  target: site,
});

const GEMINI = ['gemini'] as const;

function firstCandidate(data: string): Json | undefined {
  const candidates = parse(data)?.['candidates'];
  const first: unknown = Array.isArray(candidates) ? candidates[0] : undefined;
  return typeof first === 'object' && first !== null ? (first as Json) : undefined;
}

/** The chunks that finish their response well. */
const finishing = (events: readonly string[]): number[] =>
  indexes(events, (data) => firstCandidate(data)?.['finishReason'] === 'STOP');

/** Chunks with text to say, before the finishing one. */
const textChunks = (events: readonly string[]): number[] =>
  indexes(events, (data) => {
    const parts = (firstCandidate(data)?.['content'] as Json | undefined)?.['parts'];
    return (
      Array.isArray(parts) && parts.some((p) => typeof (p as Json)['text'] === 'string' && (p as Json)['text'] !== '')
    );
  });

const responseId = (events: readonly string[]): string => {
  const id = parse(events[0] ?? '')?.['responseId'];
  return typeof id === 'string' ? id : '';
};

/** A chunk of the stream's response holding these parts. */
function chunk(events: readonly string[], parts: unknown[]): string {
  return event(
    JSON.stringify({ candidates: [{ content: { role: 'model', parts }, index: 0 }], responseId: responseId(events) }),
  );
}

function withFinishReason(events: readonly string[], site: number, reason: string): Faulted {
  const e = parse(events[site] ?? '') ?? {};
  const [first, ...rest] = e['candidates'] as Json[];
  const faulted = { ...e, candidates: [{ ...first, finishReason: reason }, ...rest] };
  return { parts: replaced(events, site, event(JSON.stringify(faulted))), target: site };
}

/** The stream as one JSON array, part `i` holding element `i` with the `[` or the comma before it. */
function arrayParts(events: readonly string[]): string[] {
  return events.map((data, i) => `${i === 0 ? '[' : '\r\n,\r\n'}${data}`);
}

export const GEMINI_FAULTS: FaultKind[] = [
  {
    rule: 'gemini.finish-incomplete',
    name: 'MAX_TOKENS instead of STOP',
    dialects: GEMINI,
    sites: finishing,
    apply: (events, site) => withFinishReason(events, site, 'MAX_TOKENS'),
  },
  {
    rule: 'gemini.function-call-dropped',
    name: 'MALFORMED_FUNCTION_CALL instead of STOP',
    dialects: GEMINI,
    sites: finishing,
    apply: (events, site) => withFinishReason(events, site, 'MALFORMED_FUNCTION_CALL'),
  },
  {
    rule: 'gemini.prompt-blocked',
    name: 'the prompt blocked',
    dialects: GEMINI,
    sites: (events) => (events.length > 0 ? [0] : []),
    apply: (events) => ({
      parts: [event(JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, responseId: responseId(events) }))],
      target: 0,
    }),
  },
  {
    rule: 'gemini.partial-args-incomplete',
    name: 'a streamed function call that never gets its last part',
    dialects: GEMINI,
    sites: finishing,
    apply: (events, site) => ({
      ...insertedBefore(events, site, chunk(events, [{ functionCall: { name: 'f', willContinue: true } }])),
      alternative: site + 1,
    }),
  },
  {
    rule: 'gemini.after-finish',
    name: 'text after the finishing chunk',
    dialects: GEMINI,
    sites: finishing,
    apply: (events, site) => insertedBefore(events, site + 1, chunk(events, [{ text: 'late' }])),
  },
  {
    rule: 'provider.missing-terminal',
    name: 'the finishing chunk dropped',
    dialects: GEMINI,
    sites: finishing,
    apply: (events, site) => ({ parts: replaced(events, site), target: 'end' }),
  },
  {
    rule: 'provider.api-error',
    name: 'an error body instead of the rest',
    dialects: GEMINI,
    sites: textChunks,
    apply: (events, site) => ({
      parts: [
        ...events.slice(0, site).map(event),
        event(JSON.stringify({ error: { code: 500, message: 'Internal error', status: 'INTERNAL' } })),
      ],
      target: site,
    }),
  },
  {
    rule: 'provider.tool-args-invalid',
    name: 'function call args that are no object',
    dialects: GEMINI,
    sites: textChunks,
    apply: (events, site) => ({
      parts: replaced(events, site, chunk(events, [{ functionCall: { name: 'f', args: '{"city": "Par' } }])),
      target: site,
    }),
  },
  {
    rule: 'json-array.cut-element',
    name: 'a JSON array body cut inside an element',
    dialects: GEMINI,
    sites: (events) => indexes(events, (data) => data.length > 2),
    apply: (events, site) => {
      const parts = arrayParts(events).slice(0, site + 1);
      const cut = parts[site] ?? '';
      parts[site] = cut.slice(0, cut.length - Math.floor((events[site] ?? '').length / 2));
      return { parts, target: site };
    },
  },
  {
    rule: 'json-array.unclosed',
    name: 'a JSON array body without its closing ]',
    dialects: GEMINI,
    sites: (events) => (events.length > 0 ? [events.length - 1] : []),
    apply: (events) => ({ parts: arrayParts(events), target: 'end' }),
  },
  {
    rule: 'json-array.object-body',
    name: 'one chunk saved pretty-printed instead of the streamed array',
    dialects: GEMINI,
    sites: (events) => (events.length > 0 ? [0] : []),
    apply: (events) => ({ parts: [JSON.stringify(JSON.parse(events[0] ?? '{}'), null, 2)], target: 0 }),
  },
  {
    rule: 'json-array.malformed',
    name: 'bytes between two elements of a JSON array body that are no JSON',
    dialects: GEMINI,
    sites: (events) => indexes(events, (_, i) => i + 1 < events.length),
    apply: (events, site) => {
      const parts: string[] = arrayParts(events);
      parts.splice(site + 1, 0, '\r\n}}');
      return { parts: [...parts, '\r\n]'], target: site + 1 };
    },
  },
];
