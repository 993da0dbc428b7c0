import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PreparedSpan } from '../../../src-shared/pipeline/prepared';

export interface SpanJob {
  id: number;
  /** The span's bytes (a copy the job owns: moved to the thread). */
  bytes: Uint8Array;
  /** Where they start in the leg. */
  start: number;
  budget: number;
}

export interface SpanResult {
  id: number;
  span: PreparedSpan;
}

/** Threads that read spans of a leg ahead of the ordered decode (src-shared/pipeline/prepared.ts). */
export interface SpanPool {
  readonly size: number;
  read(bytes: Uint8Array, start: number, budget: number): Promise<PreparedSpan>;
  close(): Promise<void>;
}

/** One thread per core the machine offers, at least one (`--workers cores`). */
export function coreCount(): number {
  return Math.max(1, availableParallelism());
}

/**
 * A worker bootstrap that registers tsx's loader, then imports the TypeScript entry (running
 * from source). tsx is resolved here, from this module: an evaluated worker resolves a bare
 * name from the process's working folder, where a CLI run outside the project finds no tsx.
 */
function sourceBootstrap(entry: URL): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
}

/**
 * The thread's entry beside this module: the TypeScript source when running from it (the
 * tests, `npm start`, the CLI without its bundle), else the bundle's `span-worker.mjs`
 * (scripts/build-cli.mjs builds it beside the CLI's chunks).
 */
function startWorker(): Worker {
  const here = import.meta.url;
  return here.endsWith('.ts')
    ? new Worker(sourceBootstrap(new URL('./span-worker.ts', here)), { eval: true })
    : new Worker(new URL('./span-worker.mjs', here));
}

/**
 * `count` threads (at least one), each given the next span when it is the least busy. A
 * thread that fails or exits rejects the spans it holds and is given no more; once none is
 * left a span is rejected at once: the caller then decodes in order, which never needs a
 * span. (A span sent to a thread that had exited was never answered, and with nothing else
 * to wait for Node ended the CLI with code 13, an unsettled top-level await.) `start` makes a
 * thread (tests start ones that fail).
 */
export function createSpanPool(count: number, start: () => Worker = startWorker): SpanPool {
  const size = Math.max(1, Math.floor(count));
  const pending = new Map<number, { resolve: (span: PreparedSpan) => void; reject: (error: Error) => void }>();
  const busy: number[] = [];
  const workers: Worker[] = [];
  /** Why each thread is gone, by its index (undefined while it runs). */
  const gone: (Error | undefined)[] = [];
  const owner = new Map<number, number>();
  let nextId = 0;
  const fail = (w: number, error: Error): void => {
    gone[w] ??= error;
    for (const [id, job] of pending)
      if (owner.get(id) === w) {
        pending.delete(id);
        owner.delete(id);
        job.reject(error);
      }
  };
  for (let w = 0; w < size; w++) {
    const worker = start();
    worker.on('message', (result: SpanResult) => {
      const job = pending.get(result.id);
      pending.delete(result.id);
      owner.delete(result.id);
      busy[w] = (busy[w] ?? 1) - 1;
      if (busy[w] === 0) worker.unref();
      job?.resolve(result.span);
    });
    worker.on('error', (error) => fail(w, error));
    worker.on('exit', (code) => fail(w, new Error(`A span-reading thread exited with code ${code}`)));
    // An idle thread never keeps the process alive; one with spans to read does (read()).
    worker.unref();
    workers.push(worker);
    busy.push(0);
    gone.push(undefined);
  }
  return {
    size,
    read(bytes, start, budget) {
      let w = -1;
      for (let i = 0; i < size; i++) if (!gone[i] && (w < 0 || (busy[i] as number) < (busy[w] as number))) w = i;
      if (w < 0) return Promise.reject(gone[0] ?? new Error('No span-reading thread is left'));
      const id = nextId++;
      busy[w] = (busy[w] as number) + 1;
      owner.set(id, w);
      (workers[w] as Worker).ref();
      const job: SpanJob = { id, bytes, start, budget };
      return new Promise<PreparedSpan>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        (workers[w] as Worker).postMessage(job, [bytes.buffer as ArrayBuffer]);
      });
    },
    async close() {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
