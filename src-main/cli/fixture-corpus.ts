import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every stream the project ships (SSE captures, recordings, HAR and envelope files), relative
 * to CORPUS_ROOT: what the streamed commands are checked against the whole decode on.
 */
export const CORPUS_ROOT = join(import.meta.dirname, '../../resources');

export const CORPUS_FILES = readdirSync(CORPUS_ROOT, { recursive: true, encoding: 'utf8' })
  .map((name) => name.split('\\').join('/'))
  .filter((name) => /\.(sse|recording|har|ndjson|jsonl)$/.test(name))
  .sort();
