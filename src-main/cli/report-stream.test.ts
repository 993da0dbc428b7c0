import { expect, test } from 'vitest';
import { DEFAULT_INLINE_OPTIONS } from '../../src-shared/inline/types';
import { decodeFile } from './decode-file';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { buildReport } from './report';
import { reportFile } from './stream-file';
import { memoryIo } from './test-io';

/**
 * `inspect` reports a file streamed (reportFile: nothing kept per envelope, finished blocks let
 * go) and, with --filter, decoded whole (buildReport): both say the same of every stream the
 * project ships, recordings, HAR and envelope files included.
 */
test('the corpus is there', () => {
  expect(CORPUS_FILES.length).toBeGreaterThan(50);
});

test.each(CORPUS_FILES)('%s: the streamed report is the whole decode’s', async (name) => {
  const io = { ...memoryIo(), cwd: CORPUS_ROOT };
  const whole = buildReport(await decodeFile(name, 'auto', io, { inline: DEFAULT_INLINE_OPTIONS }));
  expect(await reportFile(name, 'auto', io, { inline: DEFAULT_INLINE_OPTIONS })).toEqual(whole);
});
