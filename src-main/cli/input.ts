import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { openRegularFile } from '../services/importers/regular-file';
import type { CliIo } from './io';

/** Reads FILE (a regular file) or `-` (stdin) as a stream of byte chunks, never as one string. */
export async function* readChunks(file: string, io: CliIo): AsyncGenerator<Uint8Array> {
  const stream: Readable =
    file === '-'
      ? io.stdin
      : (await openRegularFile(resolve(io.cwd, file))).createReadStream({ highWaterMark: 64 * 1024 });
  for await (const chunk of stream) {
    yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk as Buffer);
  }
}
