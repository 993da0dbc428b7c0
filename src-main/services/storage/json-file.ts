import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A small JSON document in the user-data folder (saved requests, environments, the recent
 * sessions' index). Writes go to a temporary file that is then renamed over the old one, so a
 * crash mid-write leaves the previous document, never half of one. Writes are serialised: the
 * last one called is the one on disk.
 */
export interface JsonFile<T> {
  readonly path: string;
  /** The document, or `fallback` when the file is missing; a file that is not valid JSON is reported, not overwritten silently. */
  read(): Promise<T>;
  write(value: T): Promise<void>;
}

export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

export function jsonFile<T>(
  path: string,
  options: { fallback: () => T; check: (value: unknown) => T; mode?: number },
): JsonFile<T> {
  let queue: Promise<void> = Promise.resolve();
  const mode = options.mode ?? 0o644;
  return {
    path,
    async read() {
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return options.fallback();
        throw error;
      }
      try {
        return options.check(JSON.parse(text) as unknown);
      } catch (error) {
        throw new UnreadableFileError(
          `${path} could not be read (${error instanceof Error ? error.message : String(error)}); fix or remove the file.`,
        );
      }
    },
    write(value) {
      const next = queue.then(async () => {
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
        try {
          await writeFile(temp, `${JSON.stringify(value, null, 2)}\n`, { mode, flag: 'wx' });
          // The mode of a new file is masked by the umask: set it exactly.
          await chmod(temp, mode);
          await rename(temp, path);
        } catch (error) {
          await rm(temp, { force: true });
          throw error;
        }
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
