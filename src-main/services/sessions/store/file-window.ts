import { readSync } from 'node:fs';

/**
 * Positional reads of an open file through one window: reading neighbouring ranges (a page of
 * rows, a block's deltas, a leg's chunks in order) costs one system call per window, not one
 * per range.
 */
export class FileWindow {
  private bytes = new Uint8Array(0);
  private start = 0;

  constructor(private readonly windowBytes: number) {}

  /**
   * Bytes [from, to) of the file `fd`, reading ahead to at most `limit`: a view, valid until
   * the next read. Shorter than asked when the file ends first.
   */
  read(fd: number, from: number, to: number, limit = Number.MAX_SAFE_INTEGER): Uint8Array {
    if (from >= this.start && to <= this.start + this.bytes.byteLength)
      return this.bytes.subarray(from - this.start, to - this.start);
    const window = new Uint8Array(Math.max(to, Math.min(limit, from + this.windowBytes)) - from);
    let read = 0;
    while (read < window.byteLength) {
      const n = readSync(fd, window, read, window.byteLength - read, from + read);
      if (n === 0) break;
      read += n;
    }
    this.bytes = read < window.byteLength ? window.subarray(0, read) : window;
    this.start = from;
    return this.bytes.subarray(0, to - from);
  }

  /** Forgets what was read (the file is closing). */
  clear(): void {
    this.bytes = new Uint8Array(0);
    this.start = 0;
  }
}
