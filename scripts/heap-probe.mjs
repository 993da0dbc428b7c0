// Preloaded (`node --import ./scripts/heap-probe.mjs …`) into a process a memory soak watches
// (src-main/services/recording/record-soak.test.ts): every HEAP_PROBE_MS (default 500) it
// collects garbage and writes the memory still retained (the JS heap, and array buffers apart:
// those are the recorder's queued writes, bounded on their own) and the RSS, in bytes, as one
// JSON line to file descriptor 3. Retained memory after a full
// collection does not depend on when the collector last ran, so a soak can tell memory that
// grows with the stream from garbage not yet collected.
import { writeSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc');
const every = Number(process.env.HEAP_PROBE_MS ?? 500);

setInterval(() => {
  collect();
  const { heapUsed, arrayBuffers, rss } = process.memoryUsage();
  try {
    writeSync(3, `${JSON.stringify({ heap: heapUsed, arrayBuffers, rss })}\n`);
  } catch {
    // The watcher is gone: nothing to tell.
  }
}, every).unref();
