import { createSpanPool, coreCount, type SpanPool } from '../services/parallel/span-pool';
import { UsageError } from './io';

/** `--workers N`: the threads that decode a large file (the ordered pass and N−1 reading ahead). */
export const WORKERS_ARG = { workers: { type: 'string' } } as const;

/**
 * Files from this size on are decoded with threads reading ahead; below it starting them
 * costs more than they save (docs/performance.md, "Every core on a big recording").
 */
export const PARALLEL_MIN_BYTES = 8 * 1024 * 1024;

/**
 * The thread count: `--workers N` (at least 1; `cores`: one per core the machine offers). By
 * default 1: the threads read ahead only what the ordered pass would parse, while it still
 * frames every event, so they add more CPU time than they take off it, and on this project's
 * 2-core machine under load a large file took 3× as long with two threads as with one
 * (docs/performance.md, "Every core on a big recording").
 */
export function parseWorkers(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'cores') return coreCount();
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--workers takes a number of threads, at least 1, or 'cores', not '${value}'`);
  return Number(value);
}

/** The threads a command's large files share, started at its first large file and closed at its end. */
export interface ReadAheadThreads {
  /** The pool for a file of `bytes` bytes, or undefined when it is decoded by the ordered pass alone. */
  forFile(bytes: number): SpanPool | undefined;
  close(): Promise<void>;
}

export function readAheadThreads(workers: number, minBytes = PARALLEL_MIN_BYTES): ReadAheadThreads {
  let pool: SpanPool | undefined;
  return {
    forFile(bytes) {
      if (workers < 2 || bytes < minBytes) return undefined;
      return (pool ??= createSpanPool(workers - 1));
    },
    async close() {
      await pool?.close();
    },
  };
}
