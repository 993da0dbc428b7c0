import { encodeBase64 } from '../recording/base64';
import type { OpenUploadRequest, SessionSummary } from './payloads';
import { MAX_UPLOAD_CHUNK_BYTES } from './payloads';
import type { InspectorService } from './inspector';

/**
 * Sends a file the page picked to the session service piece by piece while the service opens
 * it, so decoding starts with the first piece instead of after the last (sessions/sources/
 * upload-stream.ts). A few pieces are in flight at once to keep the socket busy; each is
 * answered once it is on disk, which bounds what waits in memory on either side. The session
 * opens as soon as the service has recognised the file; the rest keeps arriving behind it.
 */

export type UploadService = Pick<InspectorService, 'beginUpload' | 'sendUploadChunk' | 'abortUpload' | 'openUpload'>;

/** Pieces on their way at once: enough to hide a round trip, few enough to keep memory small. */
const IN_FLIGHT = 3;

/**
 * The first piece is small: it is all the service needs to recognise the file and decode its
 * first rows, and it arrives well before a full piece would.
 */
const FIRST_PIECE_BYTES = 64 * 1024;

export interface UploadFile {
  name: string;
  size: number;
  /** The bytes of `[start, end)` (a File's slice in the page, a file on disk in a test). */
  read(start: number, end: number): Promise<Uint8Array>;
}

export interface StartedUpload {
  /** The session, once the service has recognised the file. */
  session: Promise<SessionSummary>;
  /** Settles when every byte was sent, or rejects with why the rest could not be. */
  sent: Promise<void>;
}

export async function startUpload(
  service: UploadService,
  file: UploadFile,
  options: Omit<OpenUploadRequest, 'name' | 'uploadId' | 'base64'> = {},
  pieceBytes = MAX_UPLOAD_CHUNK_BYTES,
): Promise<StartedUpload> {
  const { uploadId } = await service.beginUpload({ name: file.name, size: file.size });
  const sent = sendPieces(service, uploadId, file, pieceBytes);
  // The session settles the upload's fate: when it cannot be opened the service drops the upload.
  const session = service.openUpload({ name: file.name, uploadId, ...options });
  sent.catch(() => undefined);
  return { session, sent };
}

async function sendPieces(
  service: UploadService,
  uploadId: string,
  file: UploadFile,
  pieceBytes: number,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  /** The first piece the service refused: nothing more is sent. */
  const refused: { error?: Error } = {};
  for (let offset = 0; offset < file.size && !refused.error;) {
    const end = Math.min(offset + (offset === 0 ? Math.min(FIRST_PIECE_BYTES, pieceBytes) : pieceBytes), file.size);
    let bytes: Uint8Array;
    try {
      bytes = await file.read(offset, end);
    } catch (error) {
      // The page could not read its own file (it changed or went away): the session fails saying so.
      const message = `the page could not read it any more (${error instanceof Error ? error.message : String(error)})`;
      // What was read before is delivered first: the session keeps all of it.
      await Promise.all(inFlight);
      await service.abortUpload({ uploadId, message }).catch(() => undefined);
      throw error;
    }
    const piece = service.sendUploadChunk({ uploadId, offset, base64: encodeBase64(bytes) }).catch((error: unknown) => {
      refused.error ??= error instanceof Error ? error : new Error(String(error));
    });
    inFlight.add(piece);
    offset = end;
    void piece.finally(() => inFlight.delete(piece));
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (refused.error) throw refused.error;
}
