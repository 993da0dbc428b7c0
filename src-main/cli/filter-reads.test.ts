import { expect, it } from 'vitest';
import { countingSourceFs, nodeSourceFs, type SourceFs } from '../services/importers/source-file';
import { CORPUS_ROOT } from './fixture-corpus';
import { main } from './main';
import { memoryIo } from './test-io';

/**
 * `inspect --filter` and `check` with assertions that read envelopes share the report's reading
 * of the file with the filter's first pass (the agents, findings and clock its subjects need):
 * they read the file twice, as much as two plain `inspect` runs, not three times (the report,
 * then the filter's two passes, each its own reading).
 */

const FILE = 'fixtures/providers/anthropic-messages/server-tools.sse';

/** The bytes a command reads of its files, counted through the CLI's file-reading seam. */
async function bytesRead(args: string[]): Promise<number> {
  let total = 0;
  const fs: SourceFs = {
    async open(path) {
      const { fs: counting, count } = countingSourceFs(nodeSourceFs);
      const file = await counting.open(path);
      return {
        ...file,
        close: async () => {
          total += count.read();
          await file.close();
        },
      };
    },
  };
  const io = { ...memoryIo(), cwd: CORPUS_ROOT, fs };
  const code = await main(args, io);
  expect(io.err()).toBe('');
  expect(code).toBe(0);
  return total;
}

it('inspect --filter reads its file twice, not three times', async () => {
  const once = await bytesRead(['inspect', FILE]);
  expect(once).toBeGreaterThan(0);
  expect(await bytesRead(['inspect', '--filter', 'agent == "main"', FILE])).toBe(2 * once);
});

it('check with an assertion on envelopes reads its file twice, not three times', async () => {
  const once = await bytesRead(['inspect', FILE]);
  expect(await bytesRead(['check', '--expect', 'some final', FILE])).toBe(2 * once);
});
