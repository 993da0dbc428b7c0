import type { Infer } from '../schema';
import { Count, Path, SessionId } from './common';
import * as s from '../schema';

/** Saving, exporting and downloading a session. */

export const RenameRequest = s.object({ sessionId: SessionId, title: s.string({ max: 200 }) });
export type RenameRequest = Infer<typeof RenameRequest>;
export const SaveRecordingRequest = s.object({ sessionId: SessionId, path: s.optional(Path) });
export type SaveRecordingRequest = Infer<typeof SaveRecordingRequest>;
export const ExportKind = s.literal('envelopes-ndjson', 'blocks-json', 'raw-sse', 'har', 'transcript-md');
export type ExportKind = Infer<typeof ExportKind>;
/** What a download holds: the session as a recording, or one of the exports (src-shared/export/formats.ts). */
export const DownloadKind = s.literal(
  'recording',
  'envelopes-ndjson',
  'blocks-json',
  'raw-sse',
  'har',
  'transcript-md',
);
export type DownloadKind = Infer<typeof DownloadKind>;
export const DownloadRequest = s.object({ sessionId: SessionId, kind: DownloadKind });
export type DownloadRequest = Infer<typeof DownloadRequest>;
/** A file for the page to hand to the browser as a download: its name, type and bytes. */
export const DownloadFile = s.object({
  fileName: s.string(),
  mimeType: s.string(),
  bytes: Count(),
  base64: s.string(),
});
export type DownloadFile = Infer<typeof DownloadFile>;
export const ExportRequest = s.object({ sessionId: SessionId, kind: ExportKind, path: s.optional(Path) });
export type ExportRequest = Infer<typeof ExportRequest>;
/** null when the user cancelled the save dialog. */
export const SavedFile = s.nullable(s.object({ path: s.string(), bytes: Count() }));
export type SavedFile = Infer<typeof SavedFile>;
