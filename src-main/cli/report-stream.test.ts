import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { DEFAULT_INLINE_OPTIONS } from '../../src-shared/inline/types';
import { decodeFile } from './decode-file';
import { reportFile } from './stream-file';
import { buildReport } from './report';
import { memoryIo } from './test-io';

/**
 * `inspect` reports a file streamed (reportFile: nothing kept per envelope, finished blocks let
 * go) and, with --filter, decoded whole (buildReport): both say the same of every stream the
 * project ships, recordings, HAR and envelope files included.
 */
const ROOT = join(import.meta.dirname, '../../resources');
const FILES = readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
  .map((name) => name.split('\\').join('/'))
  .filter((name) => /\.(sse|recording|har|ndjson|jsonl)$/.test(name))
  .sort();

test('the corpus is there', () => {
  expect(FILES.length).toBeGreaterThan(50);
});

test.each(FILES)('%s: the streamed report is the whole decode’s', async (name) => {
  const io = { ...memoryIo(), cwd: ROOT };
  const whole = buildReport(await decodeFile(name, 'auto', io, { inline: DEFAULT_INLINE_OPTIONS }));
  expect(await reportFile(name, 'auto', io, { inline: DEFAULT_INLINE_OPTIONS })).toEqual(whole);
});
