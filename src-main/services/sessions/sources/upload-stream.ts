import type { FileHandle } from 'node:fs/promises';
import type { Timers } from '../../connection/connection';
import type { SourceFile, SourceFs } from '../../importers/source-file';

/**
 * An upload on its way from the page: its pieces are written to its file in the upload folder
 * as they come, and the importers read that file while it grows, so decoding starts with the
 * first piece instead of after the last. A read waits for the bytes it asks for; once the upload
 * is cut (the page gave up, nothing came for a while, the session closed) a read past what
 * arrived fails with the reason, so the session ends failed, never complete, and keeps what was
 * decoded. Memory holds no more than the piece being written.
 */

export type UploadState = 'receiving' | 'complete' | 'cut';

export interface UploadStream {
  readonly name: string;
  readonly path: string;
  /** Bytes of the whole file, as the page announced. */
  readonly size: number;
  state(): UploadState;
  /** Bytes written to the file so far (what a read can get). */
  received(): number;
  /** Writes the next piece; resolves once it is on disk (the page's backpressure). */
  append(offset: number, bytes: Uint8Array): Promise<void>;
  /** Ends the upload short of its size: what waits for more bytes fails with `reason`. */
  cut(reason: string): void;
  /** The file as the importers open it (every path names it). */
  readonly fs: SourceFs;
  /** Cuts the upload if it is still arriving and closes the file. */
  close(): Promise<void>;
}

/** No piece for this long while the upload is incomplete: the page is gone, the upload is cut. */
export const UPLOAD_IDLE_MS = 30_000;

export class UploadCutError extends Error {}

interface Waiter {
  need: number;
  wake: () => void;
}

export function createUploadStream(options: {
  name: string;
  path: string;
  size: number;
  handle: FileHandle;
  timers: Timers;
  idleMs?: number;
  /** Called once when no more bytes will come: all arrived, or cut. */
  onEnd?: (state: 'complete' | 'cut') => void;
}): UploadStream {
  const { name, path, size, handle, timers } = options;
  const idleMs = options.idleMs ?? UPLOAD_IDLE_MS;
  let state: UploadState = size === 0 ? 'complete' : 'receiving';
  /** Bytes accepted (the next piece's offset); `written` trails it while a write is on its way. */
  let accepted = 0;
  let written = 0;
  let cutReason = '';
  let writing: Promise<void> = Promise.resolve();
  let waiters: Waiter[] = [];
  let idleTimer: unknown = null;

  const wake = (): void => {
    const ready = waiters.filter((w) => state !== 'receiving' || w.need <= written);
    if (ready.length === 0) return;
    waiters = waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.wake();
  };
  const stopIdleTimer = (): void => {
    if (idleTimer !== null) timers.clearTimeout(idleTimer);
    idleTimer = null;
  };
  const armIdleTimer = (): void => {
    stopIdleTimer();
    if (state === 'receiving')
      idleTimer = timers.setTimeout(() => cut(`nothing arrived for ${idleMs / 1000} s`), idleMs);
  };
  const cut = (reason: string): void => {
    if (state !== 'receiving') return;
    state = 'cut';
    cutReason = reason;
    stopIdleTimer();
    wake();
    options.onEnd?.('cut');
  };
  const cutError = (): UploadCutError =>
    new UploadCutError(`the upload of ${name} stopped after ${written} of ${size} bytes: ${cutReason}`);

  /** Resolves once `need` bytes are on disk or the upload will bring no more. */
  const arrived = (need: number): Promise<void> =>
    state !== 'receiving' || need <= written
      ? Promise.resolve()
      : new Promise((resolve) => waiters.push({ need, wake: resolve }));

  /** Reads what is on disk of `[position, want)`; past a cut, fails with the reason. */
  const readArrived = async (position: number, want: number): Promise<Uint8Array> => {
    const end = Math.min(want, written);
    if (end <= position) {
      if (position < size && state === 'cut') throw cutError();
      return new Uint8Array(0);
    }
    const buffer = new Uint8Array(end - position);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, position + filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === buffer.length ? buffer : buffer.subarray(0, filled);
  };

  const file: SourceFile = {
    size,
    async read(position, length) {
      const want = Math.min(position + length, size);
      await arrived(want);
      return readArrived(position, want);
    },
    // The decoder takes each piece as it lands rather than waiting for a whole read block.
    async readSome(position, length) {
      await arrived(Math.min(position + 1, size));
      return readArrived(position, Math.min(position + length, size));
    },
    // The upload's file stays open for the other readers (sniffing, the header, the records); close() ends it.
    close: () => Promise.resolve(),
  };

  armIdleTimer();
  return {
    name,
    path,
    size,
    state: () => state,
    received: () => written,
    append(offset, bytes) {
      if (state === 'cut') return Promise.reject(new Error(`The upload of ${name} was cut: ${cutReason}`));
      if (offset !== accepted)
        return Promise.reject(new Error(`The upload of ${name} expected bytes from ${accepted}, got ${offset}`));
      if (offset + bytes.length > size)
        return Promise.reject(new Error(`The upload of ${name} is longer than the ${size} bytes announced`));
      accepted += bytes.length;
      armIdleTimer();
      const write = async (): Promise<void> => {
        for (let done = 0; done < bytes.length;) {
          const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, offset + done);
          done += bytesWritten;
        }
        written = offset + bytes.length;
        if (written === size && state === 'receiving') {
          state = 'complete';
          stopIdleTimer();
          options.onEnd?.('complete');
        }
        wake();
      };
      // Pieces are written in order, one at a time; a failed write cuts the upload.
      writing = writing.then(write).catch((error: unknown) => {
        cut(`writing it to disk failed (${error instanceof Error ? error.message : String(error)})`);
        throw error;
      });
      const mine = writing;
      writing = writing.catch(() => undefined);
      return mine;
    },
    cut,
    fs: { open: () => Promise.resolve(file) },
    async close() {
      cut('the session was closed');
      await writing;
      await handle.close();
    },
  };
}
