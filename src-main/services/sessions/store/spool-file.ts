import { closeSync, mkdirSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { FileWindow } from './file-window';

/**
 * An append-only scratch file of one session: bytes are written once and read back by
 * offset, so a session keeps its raw stream and its envelopes' text on disk and only an
 * index in memory. Writes go through a small buffer (one system call per block, not per
 * chunk); reads are served from a window of the file, so reading neighbouring items (a page
 * of rows, a block's deltas, a full scan) costs one system call per window.
 *
 * The file is unlinked as soon as it is created where the system allows it (POSIX): it has
 * no name, and its space returns to the disk when it is closed or the process ends, even
 * after a crash. Where an open file cannot be unlinked (Windows), it is deleted on close.
 */

const WRITE_BUFFER_BYTES = 64 * 1024;
const READ_WINDOW_BYTES = 64 * 1024;

/** The folder spool files are created in (created on first use, private to the user). */
function spoolFolder(): string {
  const dir = join(tmpdir(), 'stream-inspector-spool');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Creates the spool file for `what` and returns its descriptor and, where it could not be
 * unlinked while open, its path (deleted on close). Injected where a test needs writes that fail.
 */
export type OpenSpool = (what: string) => { fd: number; path: string | null };

export const createTempSpool: OpenSpool = () => {
  const path = join(spoolFolder(), `${process.pid}-${randomBytes(8).toString('hex')}.spool`);
  const fd = openSync(path, 'wx+', 0o600);
  try {
    unlinkSync(path);
    return { fd, path: null };
  } catch {
    return { fd, path }; // deleted on close instead
  }
};

/** A write to a spool file failed (the disk is full, the folder is gone…): the message names what and why. */
export class SpoolWriteError extends Error {
  override readonly name = 'SpoolWriteError';
  readonly code: string | undefined;
  constructor(what: string, cause: unknown) {
    const error = cause as NodeJS.ErrnoException;
    super(`Writing the session's ${what} to disk failed: ${error instanceof Error ? error.message : String(cause)}`, {
      cause,
    });
    this.code = typeof error?.code === 'string' ? error.code : undefined;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class SpoolFile {
  /**
   * `what` the file holds, for the message of a failed write ("raw bytes"). A failed write
   * throws a SpoolWriteError and loses nothing already appended: the bytes not yet on disk
   * stay in the write buffer, readable, and the next flush tries them again.
   */
  constructor(
    private readonly what = 'data',
    private readonly open: OpenSpool = createTempSpool,
  ) {}

  private fd: number | null = null;
  private path: string | null = null;
  private closed = false;
  /** Bytes already written to the file. */
  private flushed = 0;
  private readonly pending = new Uint8Array(WRITE_BUFFER_BYTES);
  private pendingBytes = 0;
  private readonly window = new FileWindow(READ_WINDOW_BYTES);

  /** Bytes appended so far. */
  get length(): number {
    return this.flushed + this.pendingBytes;
  }

  /** Appends `bytes`; returns the offset they start at. */
  append(bytes: Uint8Array): number {
    const start = this.length;
    if (bytes.byteLength > this.pending.length - this.pendingBytes) this.flush();
    if (bytes.byteLength >= this.pending.length) this.write(bytes);
    else {
      this.pending.set(bytes, this.pendingBytes);
      this.pendingBytes += bytes.byteLength;
    }
    return start;
  }

  /** Appends `text` as UTF-8; returns its byte length. */
  appendText(text: string): number {
    if (text === '') return 0;
    // A UTF-16 code unit takes at most 3 bytes of UTF-8.
    if (text.length * 3 > this.pending.length - this.pendingBytes) this.flush();
    if (text.length * 3 > this.pending.length) {
      const bytes = encoder.encode(text);
      this.append(bytes);
      return bytes.byteLength;
    }
    const { written } = encoder.encodeInto(text, this.pending.subarray(this.pendingBytes));
    this.pendingBytes += written;
    return written;
  }

  /** Bytes [start, end) (clamped to what was appended). A view, valid until the next append or read: copy it to keep it. */
  read(start: number, end: number): Uint8Array {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    if (to === from) return new Uint8Array(0);
    if (from >= this.flushed) return this.pending.subarray(from - this.flushed, to - this.flushed);
    // The part still in the write buffer is joined after the part on disk.
    const onDisk = Math.min(to, this.flushed);
    const window = this.window.read(this.descriptor(), from, onDisk, this.flushed);
    if (window.byteLength < onDisk - from)
      throw new Error(`The spool file ended at ${from + window.byteLength} of ${this.flushed} bytes`);
    if (to <= onDisk) return window;
    const out = new Uint8Array(to - from);
    out.set(window);
    out.set(this.pending.subarray(0, to - onDisk), onDisk - from);
    return out;
  }

  /** Bytes [start, end) decoded as UTF-8. */
  readText(start: number, end: number): string {
    return end > start ? decoder.decode(this.read(start, end)) : '';
  }

  /** Closes (and deletes) the file; reading afterwards is an error. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.window.clear();
    if (this.fd !== null) {
      spoolFiles.unregister(this);
      closeSync(this.fd);
    }
    this.fd = null;
    if (this.path !== null) {
      try {
        unlinkSync(this.path);
      } catch {
        // Already gone: the temp folder was cleaned.
      }
    }
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    this.write(this.pending.subarray(0, this.pendingBytes));
    this.pendingBytes = 0;
  }

  private write(bytes: Uint8Array): void {
    try {
      const fd = this.descriptor();
      let written = 0;
      while (written < bytes.byteLength)
        written += writeSync(fd, bytes, written, bytes.byteLength - written, this.flushed + written);
    } catch (error) {
      if (this.closed) throw error;
      throw new SpoolWriteError(this.what, error);
    }
    this.flushed += bytes.byteLength;
  }

  private descriptor(): number {
    if (this.closed) throw new Error('The session was closed: its spool file is gone');
    if (this.fd !== null) return this.fd;
    const { fd, path } = this.open(this.what);
    this.fd = fd;
    this.path = path;
    spoolFiles.register(this, { fd, path }, this);
    return fd;
  }
}

/**
 * Closes (and deletes) the file of a session that was dropped without being closed: a replay
 * started over (its previous run may still have a batch scheduled, so it is not closed at
 * once), a test.
 */
const spoolFiles = new FinalizationRegistry<{ fd: number; path: string | null }>(({ fd, path }) => {
  try {
    closeSync(fd);
    if (path !== null) unlinkSync(path);
  } catch {
    // Closed or deleted already.
  }
});
