import type { FaultKind, Faulted } from '../../testing/faults';
import { encodeUtf8 } from '../../text/utf8';

/**
 * The AI SDK's faults for the fault suite (src-shared/testing/faults.ts): each breaks one rule
 * at one event of a clean stream of this dialect (resources/fixtures/providers/ai-sdk-ui), in
 * the UI message stream (JSON chunks) or the v4 data stream (`CODE:JSON` lines, which the suite
 * frames as lines), and the decoder must report that rule at that event.
 */

type Json = Record<string, unknown>;

const event = (data: string): string => `data: ${data}\n\n`;

function parse(data: string | undefined): Json | undefined {
  try {
    const value: unknown = JSON.parse(data ?? '');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function indexes(events: readonly string[], test: (data: string, i: number) => boolean): number[] {
  const out: number[] = [];
  events.forEach((data, i) => {
    if (test(data, i)) out.push(i);
  });
  return out;
}

/** The stream with event `site` replaced by `replacement` (SSE text of zero or more events). */
function replaced(events: readonly string[], site: number, ...replacement: string[]): string[] {
  return [...events.slice(0, site).map(event), ...replacement, ...events.slice(site + 1).map(event)];
}

/** Event `site` with `inserted` (SSE text) before it; the finding points at the insertion. */
function insertedBefore(events: readonly string[], site: number, inserted: string): Faulted {
  return { parts: [...events.slice(0, site).map(event), inserted, ...events.slice(site).map(event)], target: site };
}

const insertedAfter = (events: readonly string[], site: number, inserted: string): Faulted =>
  insertedBefore(events, site + 1, inserted);

/** Event `site` (a JSON chunk) with its fields changed. */
const withFields = (events: readonly string[], site: number, change: (e: Json) => Json): Faulted => ({
  parts: replaced(events, site, event(JSON.stringify(change(parse(events[site]) ?? {})))),
  target: site,
});

const DIALECTS = ['ai-sdk-ui'] as const;

/** UI message stream chunks of a type. */
const chunks =
  (type: string) =>
  (events: readonly string[]): number[] =>
    indexes(events, (data) => parse(data)?.['type'] === type);

/** v4 data stream lines with a code. */
const lines =
  (code: string) =>
  (events: readonly string[]): number[] =>
    indexes(events, (data) => data.startsWith(`${code}:`));

/**
 * v4 lines but the first: a stream is framed by lines on the evidence of its first bytes, so a
 * broken first line makes it no data stream at all.
 */
const v4LinesAfterTheFirst = (events: readonly string[]): number[] =>
  indexes(events, (data, i) => i > 0 && !data.startsWith('{') && data !== '[DONE]');

const chunk = (fields: Record<string, unknown>): string => event(JSON.stringify(fields));

export const AI_SDK_FAULTS: readonly FaultKind[] = [
  {
    rule: 'provider.api-error',
    name: 'AI SDK error part instead of the rest',
    dialects: DIALECTS,
    sites: (events) => [...chunks('text-delta')(events), ...lines('0')(events)],
    apply: (events, site) => ({
      parts: [
        ...events.slice(0, site).map(event),
        (events[site] ?? '').startsWith('{')
          ? chunk({ type: 'error', errorText: 'Overloaded' })
          : event('3:"Overloaded"'),
      ],
      target: site,
    }),
  },
  {
    rule: 'provider.missing-terminal',
    name: 'AI SDK finish (and [DONE]) dropped',
    dialects: DIALECTS,
    sites: (events) => [...chunks('finish')(events), ...lines('d')(events)],
    apply: (events, site) => ({
      parts: events.slice(0, site).map(event),
      target: 'end',
    }),
  },
  {
    rule: 'ai-sdk.missing-finish',
    name: 'finish part dropped before [DONE]',
    dialects: DIALECTS,
    sites: chunks('finish'),
    apply: (events, site) => ({ parts: replaced(events, site), target: site }),
  },
  {
    rule: 'ai-sdk.after-finish',
    name: 'part after the finish part',
    dialects: DIALECTS,
    sites: chunks('finish'),
    apply: (events, site) => insertedAfter(events, site, chunk({ type: 'text-start', id: 'late' })),
  },
  {
    rule: 'ai-sdk.aborted',
    name: 'abort part mid-stream',
    dialects: DIALECTS,
    sites: chunks('text-delta'),
    apply: (events, site) => insertedBefore(events, site, chunk({ type: 'abort', reason: 'stopped by the user' })),
  },
  {
    rule: 'provider.block-not-started',
    name: 'text delta for an id never started',
    dialects: DIALECTS,
    sites: chunks('text-delta'),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, id: 'never-started' })),
  },
  {
    rule: 'provider.tool-args-invalid',
    name: 'streamed tool input that does not parse',
    dialects: DIALECTS,
    sites: chunks('tool-input-delta'),
    apply: (events, site) => {
      const available = events.findIndex((d, i) => i > site && parse(d)?.['type'] === 'tool-input-available');
      const faulted = withFields(events, site, (e) => ({ ...e, inputTextDelta: `${String(e['inputTextDelta'])}"}]` }));
      return { ...faulted, target: available, alternative: site };
    },
  },
  {
    rule: 'ai-sdk.tool-input-error',
    name: 'tool-input-error instead of tool-input-available',
    dialects: DIALECTS,
    sites: chunks('tool-input-available'),
    apply: (events, site) =>
      withFields(events, site, (e) => ({ ...e, type: 'tool-input-error', errorText: 'Invalid input for tool' })),
  },
  {
    rule: 'ai-sdk.tool-output-error',
    name: 'tool-output-error instead of tool-output-available',
    dialects: DIALECTS,
    sites: chunks('tool-output-available'),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        type: 'tool-output-error',
        toolCallId: e['toolCallId'],
        errorText: 'timeout',
      })),
  },
  {
    rule: 'ai-sdk.bad-line',
    name: 'data stream line that is no part',
    dialects: DIALECTS,
    sites: v4LinesAfterTheFirst,
    apply: (events, site) => ({ parts: replaced(events, site, event('Hello, world')), target: site }),
  },
  {
    rule: 'ai-sdk.unknown-code',
    name: 'data stream part of a code newer than the inspector',
    dialects: DIALECTS,
    sites: v4LinesAfterTheFirst,
    apply: (events, site) => insertedBefore(events, site, event('x:{"future":true}')),
  },
  {
    rule: 'stream.unterminated-line',
    name: 'data stream cut inside its last line',
    dialects: DIALECTS,
    sites: (events) => {
      const last = events.length - 1;
      return last >= 0 && !(events[last] ?? '').startsWith('{') && events[last] !== '[DONE]' ? [last] : [];
    },
    apply: (events, site) => {
      const line = events[site] ?? '';
      // Bytes, not an event: the line is cut, with no line ending.
      return { parts: [...events.slice(0, site).map(event), encodeUtf8(line.slice(0, line.length - 3))], target: site };
    },
  },
];
