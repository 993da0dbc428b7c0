import type { HarEntry } from '../../src-shared/contract';

/**
 * Choosing what to open from a HAR file of several entries: which are ticked at first, and
 * how an entry's size and type read in the list.
 */

/**
 * Ticked at first: the first stream with a body. Several streams of one HAR may
 * be unrelated runs; the user ticks a run's continuations to open them as its next legs.
 */
export function initialHarChoice(entries: readonly HarEntry[]): number[] {
  const first = entries.find((e) => e.isStream && e.hasBody) ?? entries.find((e) => e.isStream);
  return first ? [first.index] : [];
}

/** The chosen entries in file order: the legs of a run follow each other in a HAR as they were sent. */
export function toggleHarChoice(chosen: readonly number[], index: number, on: boolean): number[] {
  const next = new Set(chosen);
  if (on) next.add(index);
  else next.delete(index);
  return [...next].sort((a, b) => a - b);
}

/**
 * What kind of stream an entry is, as its badge says: an event stream (SSE), NDJSON, or a
 * line-framed wire its header announced (the AI SDK's v4 data stream, sent as text/plain).
 */
export function harStreamLabel(mimeType: string): string {
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'text/event-stream') return 'event stream';
  return /json/.test(type) ? 'NDJSON stream' : 'line stream';
}

/** "2.4 KB", "unknown" when the HAR does not say, "not saved" when the body is missing. */
export function harEntrySize(entry: Pick<HarEntry, 'size' | 'hasBody'>, formatBytes: (n: number) => string): string {
  if (!entry.hasBody) return 'not saved';
  return entry.size >= 0 ? formatBytes(entry.size) : 'unknown';
}
