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
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
