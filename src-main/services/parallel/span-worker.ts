import { parentPort } from 'node:worker_threads';
import { readSpan } from '../../../src-shared/pipeline/prepared';
import type { SpanJob, SpanResult } from './span-pool';

/**
 * A thread of the span pool (span-pool.ts): reads the healthy JSON envelopes of each span of
 * a leg it is sent, and sends them back as columns, their typed arrays moved, not copied.
 */
const port = parentPort;
if (!port) throw new Error('span-worker runs as a worker thread');
port.on('message', (job: SpanJob) => {
  const span = readSpan(job.bytes, job.start, job.budget);
  const result: SpanResult = { id: job.id, span };
  port.postMessage(result, [
    span.starts.buffer,
    span.ends.buffer,
    span.lengths.buffer,
    span.finals.buffer,
    span.types.buffer,
    span.agents.buffer,
  ]);
});
