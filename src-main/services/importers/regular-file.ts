import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * Only regular files are read (docs/reliability.md, "Memory that does not grow with the
 * stream"). A path given by the user, or matched by a glob, may be a symlink to /dev/zero
 * (endless bytes: read whole, it fills memory), a FIFO (opening it for reading waits for a
 * writer, forever) or another device. The file is opened without blocking (O_NONBLOCK: a FIFO
 * opens at once; a regular file reads as ever) and what was opened is checked, so a path
 * swapped between a check and the open cannot slip through.
 */

/** O_NONBLOCK where the platform has it (not on Windows, which has no FIFOs to wait on). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a path is when it is not a regular file, in words. */
function describeKind(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

export class NotRegularFileError extends Error {
  override readonly name = 'NotRegularFileError';
  /** What the path is instead: "a FIFO (named pipe)", "a character device"… */
  readonly kind: string;
  constructor(
    readonly path: string,
    stats: Stats,
  ) {
    const kind = describeKind(stats);
    super(
      `${path} is ${kind}, not a regular file: only regular files are read (pipe a stream in on stdin, as -, to read it)`,
    );
    this.kind = kind;
  }
}

/** Opens `path` (symlinks followed) for reading; rejects with NotRegularFileError unless it is a regular file. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotRegularFileError(path, stats);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A regular file's whole text (a request body, a spec, tool results), never a device's endless bytes. */
export async function readRegularTextFile(path: string): Promise<string> {
  const handle = await openRegularFile(path);
  try {
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}

/**
 * A regular file's bytes, read in one synchronous call, when it has at most `maxBytes`;
 * undefined for anything else (a larger file, or one that is not regular or cannot be read:
 * the caller opens it the usual way, which says why).
 */
export function readSmallRegularFileSync(path: string, maxBytes: number): Uint8Array | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, READ_FLAGS);
    const stats = fstatSync(fd);
    return stats.isFile() && stats.size <= maxBytes ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
