import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Memory retained after a full collection (JS heap and array buffers): what a test bounds
 * when it checks that input streams through instead of piling up. Pending garbage does not
 * count, so the figure does not depend on when the collector last ran.
 */
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

export function retainedHeap(): number {
  // Twice: a dead ArrayBuffer's memory is released by a sweeper that may still be running
  // after one collection, and the next one waits for it. Measured: a 62 MB column just
  // replaced by its grown copy still counted after one collection, not after two; the live
  // soak once failed its bound by such a sample.
  collect();
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
