import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';

/**
 * The results of `task` over `items`, in order, with later items started before their turn
 * while the items in flight weigh at most `budget` together (one always runs, however heavy).
 * Decoding is synchronous work between file reads: a command that decodes many small files
 * one at a time waits for each file's reads in turn, and started early those reads overlap
 * the decoding of the files before. The budget bounds what is held at once.
 */
export async function* inOrderAhead<T, R>(
  items: readonly T[],
  weights: readonly number[],
  budget: number,
  task: (item: T) => Promise<R>,
): AsyncGenerator<R> {
  const running = new Map<number, Promise<R>>();
  let next = 0;
  let inFlight = 0;
  const start = (i: number): void => {
    const promise = task(items[i] as T);
    // Awaited in its turn; until then a failure must not count as unhandled.
    promise.catch(() => undefined);
    running.set(i, promise);
    inFlight += weights[i] ?? 0;
  };
  for (let i = 0; i < items.length; i++) {
    if (next === i) start(next++);
    while (next < items.length && inFlight + (weights[next] ?? 0) <= budget) start(next++);
    const result = await (running.get(i) as Promise<R>);
    running.delete(i);
    inFlight -= weights[i] ?? 0;
    yield result;
  }
}

/** The size of each FILE operand (0 for stdin and for what cannot be read: its error comes when it is decoded). */
export function fileSizes(files: readonly string[], cwd: string): Promise<number[]> {
  return Promise.all(
    files.map((file) =>
      file === '-'
        ? Promise.resolve(0)
        : stat(resolve(cwd, file)).then(
            (s) => s.size,
            () => 0,
          ),
    ),
  );
}

/** How many bytes of files a command that decodes many decodes at once, at most. */
export const DECODE_AHEAD_BYTES = 8 * 1024 * 1024;
