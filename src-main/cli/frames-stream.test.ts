import { expect, test } from 'vitest';
import { decodeFile } from './decode-file';
import { CORPUS_FILES, CORPUS_ROOT } from './fixture-corpus';
import { memoryIo, runCli } from './test-io';

/**
 * `frames FILE --json` streams each leg (events printed as the chunks are read) and prints the
 * real events of the stream the file holds, a recording's, HAR's or NDJSON's included (never
 * the file's own bytes framed): the frames the whole decode saw, leg by leg, whatever the
 * chunking (--rechunk). Checked on every stream the project ships.
 */

interface Line {
  leg?: number;
  end?: true;
  event?: string;
  data?: string;
  line?: string;
}

const lines = (out: string): Line[] =>
  out
    .trim()
    .split('\n')
    .map((text) => JSON.parse(text) as Line);

test.each(CORPUS_FILES)('%s: frames prints the events the decoder framed', async (name) => {
  const decoded = await decodeFile(name, 'auto', { ...memoryIo(), cwd: CORPUS_ROOT });
  const { code, out } = await runCli(['frames', '--json', name], { cwd: CORPUS_ROOT });
  expect(code).toBe(0);
  const printed = lines(out);
  const ends = printed.filter((l) => l.end);
  expect(ends).toHaveLength(decoded.formats.length);
  // Legs in file order: the nth end line closes the nth leg.
  const byLeg: Line[][] = [[]];
  for (const l of printed) {
    if (l.end) byLeg.push([]);
    else byLeg.at(-1)!.push(l);
  }
  decoded.formats.forEach((_, leg) => {
    // The decoder reads an event no blank line ends at the end of the stream, as the SDKs do;
    // an EventSource drops it, and `frames` prints what an EventSource dispatches.
    const unterminated = decoded.diagnostics.some(
      (d) => d.rule === 'sse.unterminated-last-event' && (d.at.leg ?? 0) === leg,
    );
    const frames = decoded.frames[leg] ?? [];
    const expected = (unterminated ? frames.slice(0, -1) : frames).map((f) => f.data);
    expect(byLeg[leg]!.map((l) => l.line ?? l.data)).toEqual(expected);
  });
  for (const rechunk of ['1', 'random:7'])
    expect((await runCli(['frames', '--json', '--rechunk', rechunk, name], { cwd: CORPUS_ROOT })).out).toBe(out);
});
