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
 * The first pieces are small and grow fourfold up to `pieceBytes`: the first is all the service
 * needs to recognise the file, the next few hold its first rows (a recording's first chunk
 * record alone can be larger than the first piece), and each arrives well before a full one.
 */
const FIRST_PIECE_BYTES = 64 * 1024;

export interface UploadFile {
  name: string;
  size: number;
  /**
   * The bytes of `[start, end)` in base64, as a piece carries them (a File's slice in the page,
   * encoded by the browser off the page's thread; a file on disk in a test).
   */
  readBase64(start: number, end: number): Promise<string>;
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
  let piece = Math.min(FIRST_PIECE_BYTES, pieceBytes);
  for (let offset = 0; offset < file.size && !refused.error;) {
    const end = Math.min(offset + piece, file.size);
    piece = Math.min(piece * 4, pieceBytes);
    let base64: string;
    try {
      base64 = await file.readBase64(offset, end);
    } catch (error) {
      // The page could not read its own file (it changed or went away): the session fails saying so.
      const message = `the page could not read it any more (${error instanceof Error ? error.message : String(error)})`;
      // What was read before is delivered first: the session keeps all of it.
      await Promise.all(inFlight);
      await service.abortUpload({ uploadId, message }).catch(() => undefined);
      throw error;
    }
    const sending = service.sendUploadChunk({ uploadId, offset, base64 }).catch((error: unknown) => {
      refused.error ??= error instanceof Error ? error : new Error(String(error));
    });
    inFlight.add(sending);
    offset = end;
    void sending.finally(() => inFlight.delete(sending));
    if (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (refused.error) throw refused.error;
}
