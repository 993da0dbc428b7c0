import type { RuleId } from '../diagnostics/rules';
import type { DialectId } from '../dialects/registry';
import { type EnvelopeKind } from '../envelope/vocabulary';

/** The parts every fault kind is built from (faults.ts): the types, and how a stream's events are found and changed. */

/** A clean stream as its events' data, one `data:` line each. */
export interface CleanStream {
  name: string;
  dialect: DialectId;
  events: string[];
  /** Its events name their type in an `event:` field (the provider APIs). */
  eventFields?: boolean;
  /** Its events are lines, not SSE events (a line-framed wire: the AI SDK's v4 data stream). */
  lines?: boolean;
}

/** A faulted stream: the SSE text of each event, and the event the finding must point at. */
export interface Faulted {
  parts: (string | Uint8Array)[];
  /** Index into `parts`, or `end` for a finding about how the stream ends. */
  target: number | 'end';
  /** Another event the finding may point at instead (where a decoder can first tell). */
  alternative?: number | 'end';
}

export interface FaultKind {
  rule: RuleId;
  name: string;
  dialects: readonly DialectId[];
  /** Events of the stream this fault can break. */
  sites(events: readonly string[]): number[];
  apply(events: readonly string[], site: number): Faulted;
}

export interface Fault {
  kind: FaultKind;
  stream: string;
  site: number;
  faulted: Faulted;
}

export function event(data: string): string {
  return `data: ${data}\n\n`;
}

/** The stream with event `site` replaced by `replacement` (SSE text of zero or more events). */
export function replaced(
  events: readonly string[],
  site: number,
  ...replacement: (string | Uint8Array)[]
): (string | Uint8Array)[] {
  return [...events.slice(0, site).map(event), ...replacement, ...events.slice(site + 1).map(event)];
}

export function at(events: readonly string[], site: number, ...replacement: (string | Uint8Array)[]): Faulted {
  return { parts: replaced(events, site, ...replacement), target: site };
}

/** Event `site` with `inserted` (SSE text) before it; the finding points at the insertion. */
export function insertedBefore(events: readonly string[], site: number, inserted: string): Faulted {
  return { parts: [...events.slice(0, site).map(event), inserted, ...events.slice(site).map(event)], target: site };
}

/** Event `site` with `inserted` (SSE text) after it; the finding points at the insertion. */
export function insertedAfter(events: readonly string[], site: number, inserted: string): Faulted {
  return insertedBefore(events, site + 1, inserted);
}

export function indexes(events: readonly string[], test: (data: string, i: number) => boolean): number[] {
  const out: number[] = [];
  events.forEach((data, i) => {
    if (test(data, i)) out.push(i);
  });
  return out;
}

export type Json = Record<string, unknown>;

export function parse(data: string): Json | null {
  try {
    const value: unknown = JSON.parse(data);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

export function envelopesOf(
  type: EnvelopeKind,
  test: (e: Json) => boolean = () => true,
): (events: readonly string[]) => number[] {
  return (events) =>
    indexes(events, (data) => {
      const e = parse(data);
      return e?.['type'] === type && 'agent' in e && test(e);
    });
}

export function withFields(events: readonly string[], site: number, change: (e: Json) => Json): Faulted {
  return at(events, site, event(JSON.stringify(change(parse(events[site] ?? '') ?? {}))));
}

export const isDone = (data: string): boolean => data === '[DONE]';
export const doneSite = (events: readonly string[]): number[] => indexes(events, isDone);
/** Content events: not [DONE], long enough to split. */
export const payloadSites = (events: readonly string[]): number[] =>
  indexes(events, (data) => !isDone(data) && data.length > 12);

/**
 * A split point inside `data` after which the rest reads as no SSE line of its own: not a
 * comment, not a known field, not `name: value` (after a blank line that is an unknown field,
 * see docs/reliability.md, "What cannot be told apart").
 */
export function splitPoint(data: string): number {
  for (let i = Math.floor(data.length / 2); i < data.length - 1; i++) {
    const rest = data.slice(i);
    if (!/^(:|data$|\s*$|[A-Za-z0-9_-]{1,64}:)/.test(rest)) return i;
  }
  return Math.floor(data.length / 2);
}

/** The last open tag of a streamed block before `site`. */
export function openTagBefore(events: readonly string[], site: number): number {
  for (let i = site - 1; i >= 0; i--) if (/^<content-block-(text|thinking)>$/.test(events[i] ?? '')) return i;
  return 0;
}

export const AGENT = '77777777-7777-4777-8777-777777777777';

/** A payload cut in two by `separator` (SSE text), at a point where the rest reads as no line of its own. */
export function splitPayload(rule: RuleId, name: string, separator: string): FaultKind {
  return {
    rule,
    name,
    dialects: ['json', 'xml', 'raw'],
    sites: payloadSites,
    apply: (events, site) => {
      const data = events[site] ?? '';
      const cut = splitPoint(data);
      return at(events, site, `data: ${data.slice(0, cut)}${separator}${data.slice(cut)}\n\n`);
    },
  };
}
