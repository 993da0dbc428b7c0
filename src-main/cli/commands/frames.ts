import { createLegFramer } from '../../../src-shared/pipeline/leg-framing';
import { splitEvery, splitRandom } from '../../../src-shared/sse/rechunk';
import type { Expr } from '../../../src-shared/filter';
import type { FormatChoice } from '../../../src-shared/pipeline/types';
import type { ChunkInput } from '../../../src-shared/pipeline/session-decoder';
import { filesFrom, HAR_ENTRY_ARG, parse, parseFormat, parseHarEntry } from '../args';
import { legsOf, openInput } from '../decode-file';
import { streamFile } from '../stream-file';
import { parseOption, selectEnvelopes } from '../filter-option';
import { errorText, printJson, UsageError, type CliIo, type Command } from '../io';

type Rechunk = ((bytes: Uint8Array) => Uint8Array[]) | null;

function parseRechunk(value: string | undefined): Rechunk {
  if (value === undefined) return null;
  const random = /^random:(\d+)$/.exec(value);
  if (random) return (bytes) => splitRandom(bytes, Number(random[1]));
  if (/^[1-9]\d*$/.test(value)) return (bytes) => splitEvery(bytes, Number(value));
  throw new UsageError(`--rechunk takes N (bytes) or random:SEED, not '${value}'`);
}

/**
 * Each event exactly as a WHATWG EventSource dispatches it, as NDJSON, then the end state; a
 * stream of a line-framed wire (the AI SDK's v4 data stream: its first bytes say so) as its
 * lines, each `{line}`.
 * A FILE is opened with the importers, as every command opens it: the events are those of the
 * stream it holds (each leg of a recording, the items of an NDJSON or HAR file), never the
 * file's own bytes framed; each line names its leg, and each leg ends with its end state.
 * Standard input is read as an SSE capture. `--rechunk` re-splits each chunk of a leg as it is
 * read, to show results do not depend on chunking. `--filter EXPR` keeps the events that carry an
 * envelope matching the filter.
 */
export const frames: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    rechunk: { type: 'string' },
    json: { type: 'boolean' },
    filter: { type: 'string' },
    format: { type: 'string' },
    ...HAR_ENTRY_ARG,
  });
  if (!values.json) throw new UsageError('frames prints NDJSON only: pass --json');
  // Operands as inspect and check take them (globs expanded), the options checked before any is read.
  const files = await filesFrom(positionals, io.cwd);
  const format = parseFormat(values.format, io.dialects);
  const harEntry = parseHarEntry(values['har-entry']);
  if (values.filter !== undefined) {
    if (values.rechunk !== undefined)
      throw new UsageError(
        '--filter and --rechunk do not combine: a filter reads decoded envelopes, whatever the chunking',
      );
    const filter = parseOption(values.filter, 'filter', '--filter');
    return eachFile(files, io, (file) => filteredFrames(file, filter, format, io, harEntry));
  }
  const rechunk = parseRechunk(values.rechunk);
  return eachFile(files, io, async (file) => {
    for (const leg of legsOf(await openInput(file, io, harEntry), io))
      await printFrames(io, { file, ...(leg.index !== undefined ? { leg: leg.index } : {}) }, leg.chunks, rechunk);
  });
};

/**
 * Runs `print` on each file. Of many, one that cannot be read does not cost the others their
 * lines (as in inspect and check): it is said on stderr and as a `{file, error}` line, and the
 * run exits 2. Alone, it is the run's error.
 */
async function eachFile(files: readonly string[], io: CliIo, print: (file: string) => Promise<void>): Promise<number> {
  let unreadable = 0;
  for (const file of files) {
    try {
      await print(file);
    } catch (error) {
      if (files.length === 1 || error instanceof UsageError) throw error;
      unreadable++;
      io.stderr(`stream-inspector frames: ${errorText(error)}\n`);
      printJson(io, { file, error: errorText(error) }, 0);
    }
  }
  return unreadable > 0 ? 2 : 0;
}

/**
 * One stream's events, each line starting with `where` (the file, and the leg of a file),
 * printed as its chunks are read: memory holds the event being framed, never the stream.
 */
async function printFrames(
  io: CliIo,
  where: { file: string; leg?: number },
  chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>,
  rechunk: Rechunk,
): Promise<void> {
  const framer = createLegFramer(
    {
      onFrame: (f) =>
        printJson(
          io,
          framer.framing() === 'lines'
            ? { ...where, line: f.data }
            : { ...where, event: f.event || 'message', data: f.data, id: f.id },
          0,
        ),
      onDiagnostic: () => undefined,
    },
    {},
  );
  for await (const chunk of chunks) {
    for (const piece of rechunk ? rechunk(chunk.bytes) : [chunk.bytes]) framer.push(piece, 0);
    await io.drained?.();
  }
  const end = framer.end();
  printJson(io, { ...where, end: true, lastEventId: end.lastEventId, retry: end.retry }, 0);
}

/** The events that carry an envelope `filter` selects: the file read streamed, once to select, once to print them. */
async function filteredFrames(
  file: string,
  filter: Expr,
  format: FormatChoice | undefined,
  io: CliIo,
  harEntry: readonly number[] | undefined,
): Promise<void> {
  const options = harEntry ? { harEntry } : {};
  const selected = await selectEnvelopes(file, format, io, options, filter);
  const keep = new Set(selected.map((s) => `${s.envelope.leg}:${s.envelope.frame}`));
  await streamFile(file, format, io, options, {
    onFrame(f, leg) {
      if (keep.has(`${leg}:${f.seq}`))
        printJson(io, { file, leg, event: f.event || 'message', data: f.data, id: f.id }, 0);
    },
  });
  printJson(io, { file, end: true, matched: keep.size }, 0);
}
