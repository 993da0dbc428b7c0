import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import { createSseFramer } from '../../../src-shared/sse/framer';
import { splitEvery, splitRandom } from '../../../src-shared/sse/rechunk';
import { parse } from '../args';
import { readAllChunks } from '../input';
import { printJson, UsageError, type Command } from '../io';

type Rechunk = ((bytes: Uint8Array) => Uint8Array[]) | null;

function parseRechunk(value: string | undefined): Rechunk {
  if (value === undefined) return null;
  const random = /^random:(\d+)$/.exec(value);
  if (random) return (bytes) => splitRandom(bytes, Number(random[1]));
  if (/^[1-9]\d*$/.test(value)) return (bytes) => splitEvery(bytes, Number(value));
  throw new UsageError(`--rechunk takes N (bytes) or random:SEED, not '${value}'`);
}

/**
 * Each event exactly as a WHATWG EventSource dispatches it, as NDJSON, then the end state.
 * `--rechunk` re-splits the input first, to show results do not depend on chunking.
 */
export const frames: Command = async (args, io) => {
  const { values, positionals } = parse(args, { rechunk: { type: 'string' }, json: { type: 'boolean' } });
  if (!values.json) throw new UsageError('frames prints NDJSON only: pass --json');
  if (positionals.length === 0) throw new UsageError('expected FILE... (or - for stdin)');
  const rechunk = parseRechunk(values.rechunk);
  for (const file of positionals) {
    const read = await readAllChunks(file, io);
    const chunks = rechunk ? rechunk(concatBytes(read)) : read;
    const framer = createSseFramer({
      onFrame: (f) => printJson(io, { file, event: f.event || 'message', data: f.data, id: f.id }, 0),
      onDiagnostic: () => undefined,
    });
    for (const chunk of chunks) framer.push(chunk);
    const end = framer.end();
    printJson(io, { file, end: true, lastEventId: end.lastEventId, retry: end.retry }, 0);
  }
  return 0;
};
