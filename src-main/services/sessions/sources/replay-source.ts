import type { RecordedAction } from '../../../../src-shared/recording/types';
import type { ImportedChunk, ImportedLeg } from '../../importers/types';
import type { TimelineSource } from '../../replay/timeline';
import { recordedOutcome } from '../recorder-port';
import type { LegState } from '../store/leg-state';
import type { SessionStore } from '../store/session-store';

/** Any session's bytes as a replay source: its legs, chunks and receive times, from memory. */
export function sessionAsSource(data: SessionStore, actions: readonly RecordedAction[]): TimelineSource {
  function* chunks(leg: LegState): Generator<ImportedChunk> {
    const raw = leg.raw.count > 0 ? leg.raw : leg.rejected;
    for (let i = 0; i < raw.count; i++) {
      const chunk = raw.chunk(i);
      if (chunk) yield { bytes: chunk.bytes, receivedAt: chunk.receivedAt };
    }
  }
  // Re-iterable, like an importer's legs: each replay from the start reads the chunks again.
  const chunksOf = (leg: LegState): AsyncIterable<ImportedChunk> => ({
    [Symbol.asyncIterator]: () => {
      const inner = chunks(leg);
      return { next: () => Promise.resolve(inner.next()), return: () => Promise.resolve(inner.return(undefined)) };
    },
  });
  const legs: ImportedLeg[] = data.legs.map((leg) => ({
    index: leg.index,
    ...(leg.request ? { request: leg.request } : {}),
    ...(leg.response ? { response: leg.response } : {}),
    startedAt: leg.startedAt,
    ...(leg.end ? { outcome: recordedOutcome(leg.end) } : {}),
    chunkCount: leg.raw.count,
    byteCount: leg.raw.bytes,
    chunks: chunksOf(leg),
  }));
  return { legs, actions: [...actions] };
}
