/**
 * Child process of `session-store.bench.ts`: opens one recording through the session service,
 * as the app's session worker does, and prints one JSON line: when the first rows were batched,
 * when the whole file was decoded, and the process's peak resident memory.
 */
import { readFileSync } from 'node:fs';
import { createDefaultSessionService } from '../src-main/services/sessions/default-service';

/** Peak resident set of this process (Linux: VmHWM; elsewhere the largest of the samples). */
function peakRss(sampled: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // Not Linux.
  }
  return sampled;
}

async function main(path: string): Promise<void> {
  const service = createDefaultSessionService();
  let firstRowsMs = -1;
  let sampled = 0;
  const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 50);
  const start = performance.now();
  service.onSessionBatch((batch) => {
    if (firstRowsMs < 0 && batch.total > 0) firstRowsMs = performance.now() - start;
  });
  const opened = await service.openFile({ path });
  let summary = opened;
  while (summary.state === 'connecting' || summary.state === 'streaming' || summary.state === 'loading') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    summary = (await service.getSession({ sessionId: opened.id })).summary;
  }
  const indexedMs = performance.now() - start;
  clearInterval(sampler);
  const rows = await service.getRows({ sessionId: opened.id, start: summary.envelopes - 5, count: 5 });
  console.log(JSON.stringify({ firstRowsMs, indexedMs, peakRss: peakRss(sampled), envelopes: summary.envelopes, bytes: summary.bytes, state: summary.state, lastRows: rows.rows.length }));
  await service.dispose();
}

await main(process.argv[2] as string);
