import { openRegularFile } from './regular-file';

/**
 * Positional reads of a file, injected so tests can count reads or simulate failures. Every
 * read returns a fresh buffer: consumers keep chunks (the session store holds raw bytes).
 */
export interface SourceFile {
  readonly size: number;
  read(position: number, length: number): Promise<Uint8Array>;
  /**
   * Up to `length` bytes from `position` as soon as some are there: a file still arriving (an
   * upload) hands a streaming reader what it has instead of making it wait for a whole block.
   * Absent: `read`.
   */
  readSome?(position: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export interface SourceFs {
  open(path: string): Promise<SourceFile>;
}

export const nodeSourceFs: SourceFs = {
  async open(path) {
    const handle = await openRegularFile(path);
    try {
      const { size } = await handle.stat();
      return {
        size,
        async read(position, length) {
          const buffer = new Uint8Array(length);
          let filled = 0;
          while (filled < length) {
            const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
            if (bytesRead === 0) break;
            filled += bytesRead;
          }
          return filled === length ? buffer : buffer.subarray(0, filled);
        },
        close: () => handle.close(),
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  },
};

/**
 * A SourceFs over one file's bytes already in memory (every path opens them). Reads are views
 * of those bytes, which nothing writes to, so each is as safe to keep as a fresh buffer.
 */
export function bytesSourceFs(bytes: Uint8Array): SourceFs {
  const file: SourceFile = {
    size: bytes.length,
    read: (position, length) => Promise.resolve(bytes.subarray(position, position + length)),
    close: () => Promise.resolve(),
  };
  return { open: () => Promise.resolve(file) };
}

/** How much of the files opened through a counting SourceFs was read: a load's progress. */
export interface ReadCount {
  /** The largest file opened (bytes), 0 before any. */
  size(): number;
  /** The furthest byte read. */
  read(): number;
}

/** `inner` with its reads counted (progress bars: how far the decoder has read). */
export function countingSourceFs(inner: SourceFs): { fs: SourceFs; count: ReadCount } {
  let size = 0;
  let furthest = 0;
  const fs: SourceFs = {
    async open(path) {
      const file = await inner.open(path);
      size = Math.max(size, file.size);
      return {
        size: file.size,
        async read(position, length) {
          const bytes = await file.read(position, length);
          furthest = Math.max(furthest, position + bytes.length);
          return bytes;
        },
        ...(file.readSome
          ? {
              readSome: async (position: number, length: number) => {
                const bytes = await (file.readSome as NonNullable<SourceFile['readSome']>)(position, length);
                furthest = Math.max(furthest, position + bytes.length);
                return bytes;
              },
            }
          : {}),
        close: () => file.close(),
      };
    },
  };
  return { fs, count: { size: () => size, read: () => furthest } };
}

export const READ_BLOCK = 256 * 1024;

/**
 * The bytes of `[start, end)` (end defaults to the file's size when opened) as blocks of at
 * most `block` bytes. The next block is read while the caller works on one, so a caller that
 * decodes as it reads never waits for the disk (nor, on a busy machine, for the thread that
 * reads). The file is opened per iteration and closed when the loop ends or is left early,
 * so an iterable built on this can be read again.
 */
export async function* readRange(
  fs: SourceFs,
  path: string,
  start: number,
  end?: number,
  block = READ_BLOCK,
): AsyncGenerator<Uint8Array> {
  const file = await fs.open(path);
  let next: Promise<Uint8Array> | null = null;
  try {
    const stop = Math.min(end ?? file.size, file.size);
    const readBlock = file.readSome?.bind(file) ?? file.read.bind(file);
    const readFrom = (position: number): Promise<Uint8Array> | null =>
      position < stop ? readBlock(position, Math.min(block, stop - position)) : null;
    next = readFrom(start);
    for (let position = start; next;) {
      const bytes: Uint8Array = await next;
      next = null;
      if (bytes.length === 0) break;
      position += bytes.length;
      next = readFrom(position);
      yield bytes;
    }
  } finally {
    // A loop left early leaves a read in flight: it settles before the file closes.
    await next?.catch(() => undefined);
    await file.close();
  }
}

/** An async iterable that runs `make` afresh for every `for await`. */
export function reiterable<T>(make: () => AsyncGenerator<T>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => make() };
}
