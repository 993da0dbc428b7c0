import type { RecordedAction } from '../../../src-shared/recording/types';
import type { ImportedLeg, ImportedSource } from '../importers/types';

/**
 * A source as one ordered sequence of events with their recorded times: each leg's start,
 * its chunks, its end, and the user actions answering it. Replay and the replay server
 * both walk this; the gaps between the times are what they reproduce.
 */

export type TimelineEvent =
  | { kind: 'leg-start'; leg: ImportedLeg; t?: number }
  | { kind: 'chunk'; leg: ImportedLeg; legChunk: number; bytes: Uint8Array; t: number }
  | { kind: 'leg-end'; leg: ImportedLeg }
  | { kind: 'action'; action: RecordedAction; t: number };

export type TimelineSource = Pick<ImportedSource, 'legs' | 'actions'>;

/**
 * The events of every leg in order, each leg's actions right after its end. With `only`,
 * just those legs and no actions (the replay server serves one leg per request).
 */
export async function* timeline(source: TimelineSource, only?: readonly ImportedLeg[]): AsyncGenerator<TimelineEvent> {
  const withActions = only === undefined;
  const answered = new Set<number>();
  for (const leg of only ?? source.legs) {
    yield { kind: 'leg-start', leg, ...(leg.startedAt !== undefined ? { t: leg.startedAt } : {}) };
    let legChunk = 0;
    for await (const chunk of leg.chunks)
      yield { kind: 'chunk', leg, legChunk: legChunk++, bytes: chunk.bytes, t: chunk.receivedAt };
    yield { kind: 'leg-end', leg };
    answered.add(leg.index);
    if (withActions)
      for (const action of source.actions) if (action.leg === leg.index) yield { kind: 'action', action, t: action.at };
  }
  // Actions answering a leg the source does not hold (a recording that stopped right after them).
  if (withActions)
    for (const action of source.actions) if (!answered.has(action.leg)) yield { kind: 'action', action, t: action.at };
}

export function eventTime(event: TimelineEvent): number | undefined {
  return event.kind === 'leg-end' ? undefined : event.t;
}

/**
 * Recorded milliseconds to wait before an event at `next` after one at `previous`: their
 * difference, never negative (clocks of merged sources may disagree), at most `maxGapMs`.
 */
export function gapBetween(previous: number | undefined, next: number | undefined, maxGapMs = Infinity): number {
  if (previous === undefined || next === undefined) return 0;
  return Math.min(Math.max(0, next - previous), maxGapMs);
}
