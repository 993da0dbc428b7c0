import { closeSync, openSync } from 'node:fs';
import { chunkBytes, chunkOfLeg } from '../../importers/recording-source';
import type { FileSpan } from '../../importers/types';
import { FileWindow } from './file-window';

/**
 * The recording a file session was opened from, held open so that the session's raw bytes are
 * read back from its chunk records by offset when asked for, never copied: the session keeps
 * only where each chunk record is. It is opened with the session, so the bytes stay readable
 * if the file is then moved or deleted (where the system allows it, POSIX); a record that no
 * longer holds the bytes that were decoded (the file was rewritten) is an error that says so,
 * never other bytes.
 */

/** Reading chunks in order (a replay, a diff, a byte range across chunks) takes one system call per window. */
const READ_WINDOW_BYTES = 256 * 1024;

export class RecordingFile {
  private fd: number | null;
  private readonly window = new FileWindow(READ_WINDOW_BYTES);

  constructor(readonly path: string) {
    this.fd = openSync(path, 'r');
    recordingFiles.register(this, this.fd, this);
  }

  /** The bytes of the chunk record at `line`, which was decoded as `length` bytes of leg `leg`. */
  chunk(line: FileSpan, leg: number, length: number): Uint8Array {
    if (this.fd === null) throw new Error('The session was closed: its recording is no longer read');
    // Read as the file was: the recorder's own layout without decoding the line to text first.
    const record = chunkOfLeg(this.window.read(this.fd, line.start, line.end), leg);
    const bytes = record ? chunkBytes(record) : null;
    if (!bytes || bytes.byteLength !== length) {
      throw new Error(
        `${this.path} was changed on disk after it was opened: bytes ${line.start}–${line.end} no longer hold the chunk of leg ${leg} that was decoded. Open the file again to read it as it is now.`,
      );
    }
    return bytes;
  }

  close(): void {
    if (this.fd === null) return;
    recordingFiles.unregister(this);
    closeSync(this.fd);
    this.fd = null;
    this.window.clear();
  }
}

/** Closes the file of a session that was dropped without being closed (a test). */
const recordingFiles = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Closed already.
  }
});
