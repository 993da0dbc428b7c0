import type { ProgressProbe } from './sources/task-progress';
import type { LegState } from './store/leg-state';
import type { SessionStore } from './store/session-store';

/**
 * How far an export has got, for its progress bar: the writer counts the bytes, the parts
 * count the envelopes they have taken from the session. Formats built in one piece (blocks,
 * HAR, transcript) know their size and cover every envelope once built; the envelope lines
 * and the raw capture advance as they go.
 */
export interface ExportCount {
  /** Bytes written so far (for a download: built). */
  written: number;
  /** Bytes the export will have, 0 until known. */
  total: number;
  envelopes: number;
  envelopesTotal: number;
}

export function newExportCount(session: SessionStore): ExportCount {
  return { written: 0, total: 0, envelopes: 0, envelopesTotal: session.envelopeCount };
}

/** What the progress ticker reads of a running export. */
export function exportProbe(count: ExportCount): () => ProgressProbe {
  return () => ({
    task: 'export',
    total: count.total,
    received: count.written,
    decoded: count.written,
    envelopes: count.envelopes,
    envelopesTotal: count.envelopesTotal,
  });
}

/**
 * Counts the envelopes of a leg as its raw bytes are written: those of every frame that ends
 * within the bytes written so far (a frame's first envelope marks where its envelopes start),
 * and all of them, up to `envelopesEnd`, once every frame is.
 */
export function rawLegCounter(leg: LegState, envelopesEnd: number, count: ExportCount): (written: number) => void {
  const frames = leg.frames;
  let frame = 0;
  return (written) => {
    while (frame < frames.count && frames.byteEnd(frame) <= written) {
      const first = frames.firstEnvelope(frame);
      if (first >= 0) count.envelopes = Math.max(count.envelopes, first + 1);
      frame++;
    }
    if (frame === frames.count) count.envelopes = Math.max(count.envelopes, envelopesEnd);
  };
}
