import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { createSpanPool } from './span-pool';

/**
 * `inspect --workers 2` on a file of 8 MB or more (the size from which threads read ahead)
 * exited with code 13 when the CLI ran from its sources in a folder outside the project: the
 * thread's bootstrap looked for tsx in that folder, the thread died, and the spans sent to it
 * afterwards were never answered. Node ends a process whose top-level await can no longer
 * settle with code 13.
 */

const EVENT = 'data: {"type":"text","agent":"a","final":false,"delta":"hi"}\n\n';

/** A span of `events` healthy JSON envelope events (a copy: the pool moves its buffer to the thread). */
const spanOf = (events: number): Uint8Array => new TextEncoder().encode(EVENT.repeat(events));

it('regression: a thread started from the sources in a folder outside the project reads spans', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'span-pool-'));
  const home = process.cwd();
  process.chdir(dir);
  const pool = createSpanPool(1);
  try {
    const span = await pool.read(spanOf(3), 0, 2048);
    expect(span.count).toBe(3);
  } finally {
    process.chdir(home);
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  }
});

it('a thread that exits rejects the span it holds, and every span after it', async () => {
  const pool = createSpanPool(
    1,
    () => new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3));", { eval: true }),
  );
  try {
    await expect(pool.read(spanOf(1), 0, 2048)).rejects.toThrow(/exited with code 3/);
    await expect(pool.read(spanOf(1), 0, 2048)).rejects.toThrow(/exited with code 3/);
  } finally {
    await pool.close();
  }
});

it('a thread that fails at its start leaves no span unanswered', async () => {
  let started: Worker | undefined;
  const pool = createSpanPool(1, () => (started = new Worker("throw new Error('no loader');", { eval: true })));
  try {
    // Its exit, not once(): that would reject on the thread's error, which the pool handles.
    const thread = started;
    if (thread) await new Promise((resolve) => thread.on('exit', resolve));
    await expect(pool.read(spanOf(1), 0, 2048)).rejects.toThrow(/no loader/);
  } finally {
    await pool.close();
  }
});
