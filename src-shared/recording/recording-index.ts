import { fileDiagnostic, type ImportDiagnosticSink } from './diagnostics';
import { createChunkSequence, type ChunkSequence } from './chunk-sequence';
import { base64ByteLength } from './format';
import type { LegOutcome, RecordedAction, RecordedRequest, RecordedResponse, RecordingRecord } from './types';

/**
 * The table of contents of a recording, built in one pass over its records without keeping
 * any chunk bytes: per leg its request, response, outcome, chunk count and the file range
 * holding its chunk records (so a leg's bytes can be streamed again later), plus the user
 * actions. It also checks that records agree with each other.
 */

export interface LegIndex {
  leg: number;
  request?: RecordedRequest;
  /** Recorder clock when the leg started (its request was sent). */
  startedAt?: number;
  response?: RecordedResponse;
  /** What the response record says of the body (ResponseRecord.stream), when it says. */
  stream?: boolean;
  outcome?: LegOutcome;
  endedAt?: number;
  chunks: number;
  bytes: number;
  firstChunkAt: number | null;
  lastChunkAt: number | null;
  /** File range [chunkStart, chunkEnd) holding every chunk record of this leg (other legs' records may interleave). */
  chunkStart: number;
  chunkEnd: number;
  /** What the end record says was written (recordings that count it), and where that record is. */
  written?: { chunks: number; bytes: number; at: number };
}

export interface RecordingIndex {
  legs: LegIndex[];
  actions: RecordedAction[];
  records: number;
}

export interface RecordingIndexer {
  /**
   * Takes the record whose line is at [offset, end); false when it does not count (a duplicated
   * chunk, a leg started or ended again, an absurd leg number), as reported.
   */
  add(record: RecordingRecord, offset: number, end: number): boolean;
  /** No more records: report legs that never ended. */
  finish(): RecordingIndex;
}

/** Legs are numbered in order; a jump further than this is a damaged number, not a real leg. */
const MAX_LEG_GAP = 64;

export function createRecordingIndexer(report: ImportDiagnosticSink): RecordingIndexer {
  const legs: LegIndex[] = [];
  const actions: RecordedAction[] = [];
  const reportedMissingStart = new Set<number>();
  const sequences: ChunkSequence[] = [];
  let records = 0;

  const newLeg = (leg: number): LegIndex => ({
    leg,
    chunks: 0,
    bytes: 0,
    firstChunkAt: null,
    lastChunkAt: null,
    chunkStart: -1,
    chunkEnd: -1,
  });

  /** The entry of `leg`, creating it (and any skipped before it) on first use. */
  const legAt = (leg: number): LegIndex => {
    for (let i = legs.length; i <= leg; i++) legs.push(newLeg(i));
    return legs[leg] as LegIndex;
  };

  /** The leg a record refers to; a record for a leg with no start record still counts (nothing is dropped). */
  const legFor = (record: RecordingRecord & { leg: number }, offset: number): LegIndex => {
    const entry = legAt(record.leg);
    if (entry.startedAt === undefined && !reportedMissingStart.has(record.leg)) {
      reportedMissingStart.add(record.leg);
      report(
        fileDiagnostic(
          'recording.inconsistent',
          `A ${record.type} record at byte ${offset} belongs to leg ${record.leg}, which has no start record; its request is unknown.`,
          offset,
          { leg: record.leg },
        ),
      );
    }
    return entry;
  };

  const afterEnd = (entry: LegIndex, what: string, offset: number): void => {
    if (entry.outcome)
      report(
        fileDiagnostic(
          'recording.inconsistent',
          `A ${what} record at byte ${offset} comes after leg ${entry.leg} ended; it is kept.`,
          offset,
          { leg: entry.leg },
        ),
      );
  };

  return {
    add(record, offset, end) {
      records++;
      if (record.type !== 'action' && record.leg > legs.length + MAX_LEG_GAP) {
        report(
          fileDiagnostic(
            'recording.inconsistent',
            `A ${record.type} record at byte ${offset} refers to leg ${record.leg}, far beyond the ${legs.length} leg(s) seen so far; skipped as damage.`,
            offset,
          ),
        );
        return false;
      }
      switch (record.type) {
        case 'leg': {
          const existing = legs[record.leg];
          if (existing?.startedAt !== undefined) {
            report(
              fileDiagnostic(
                'recording.inconsistent',
                `Leg ${record.leg} is started again at byte ${offset}; the first start record is kept.`,
                offset,
                { leg: record.leg },
              ),
            );
            return false;
          }
          const entry = legAt(record.leg);
          entry.request = record.request;
          entry.startedAt = record.t;
          return true;
        }
        case 'response': {
          const entry = legFor(record, offset);
          afterEnd(entry, 'response', offset);
          entry.response = { status: record.status, statusText: record.statusText, headers: record.headers };
          if (record.stream !== undefined) entry.stream = record.stream;
          return true;
        }
        case 'chunk': {
          const entry = legFor(record, offset);
          afterEnd(entry, 'chunk', offset);
          const verdict = (sequences[record.leg] ??= createChunkSequence()).check(record);
          if (verdict.kind === 'duplicate') {
            report(
              fileDiagnostic(
                'recording.chunk-sequence',
                `The chunk record at byte ${offset} repeats chunk ${verdict.seq} of leg ${record.leg}, which was already read (a duplicated line); skipped.`,
                offset,
                { leg: record.leg },
              ),
            );
            return false;
          }
          if (verdict.kind === 'gap') {
            report(
              fileDiagnostic(
                'recording.chunk-sequence',
                `Before the chunk record at byte ${offset}, leg ${record.leg} is missing ${verdict.missingChunks} chunk record(s), ${verdict.missingBytes} bytes of the stream from stream offset ${verdict.fromOffset} (deleted or damaged lines): the decoded stream has a hole here.`,
                offset,
                { leg: record.leg },
              ),
            );
          }
          if (entry.chunkStart < 0) entry.chunkStart = offset;
          entry.chunkEnd = end;
          entry.chunks++;
          entry.bytes += base64ByteLength(record.bytes);
          entry.firstChunkAt ??= record.t;
          entry.lastChunkAt = record.t;
          return true;
        }
        case 'end': {
          const entry = legFor(record, offset);
          if (entry.outcome) {
            report(
              fileDiagnostic(
                'recording.inconsistent',
                `Leg ${record.leg} ends a second time at byte ${offset}; the first outcome is kept.`,
                offset,
                { leg: record.leg },
              ),
            );
            return false;
          }
          entry.outcome = {
            reason: record.reason,
            ...(record.message !== undefined ? { message: record.message } : {}),
          };
          entry.endedAt = record.t;
          if (record.chunks !== undefined && record.bytes !== undefined)
            entry.written = { chunks: record.chunks, bytes: record.bytes, at: offset };
          return true;
        }
        case 'action':
          actions.push(record.action);
          return true;
      }
    },
    finish() {
      for (const entry of legs) {
        const { written } = entry;
        const read = sequences[entry.leg]?.next() ?? { seq: 0, offset: 0 };
        // Chunk lines deleted at a leg's tail leave no gap a later chunk could show: the end record's count does.
        if (written && (written.chunks > read.seq || written.bytes > read.offset)) {
          report(
            fileDiagnostic(
              'recording.chunk-sequence',
              `Leg ${entry.leg} ends with ${written.chunks} chunk record(s), ${written.bytes} bytes, written, but its chunks in the file end at chunk ${read.seq}, byte ${read.offset}: its last ${written.chunks - read.seq} chunk record(s), ${written.bytes - read.offset} bytes of the stream, are missing (deleted or damaged lines).`,
              written.at,
              { leg: entry.leg },
            ),
          );
        }
        if (!entry.outcome) {
          const where = entry.chunkEnd >= 0 ? entry.chunkEnd : 0;
          report(
            fileDiagnostic(
              'recording.unfinished-leg',
              `Leg ${entry.leg} has no end record after its ${entry.chunks} chunk(s) (${entry.bytes} bytes): the recording stopped while it was streaming.`,
              where,
              { leg: entry.leg },
            ),
          );
        }
      }
      return { legs, actions, records };
    },
  };
}
