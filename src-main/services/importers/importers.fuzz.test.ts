/**
 * Damaged files of every kind the importers read, made by the decoder fuzzer's mutations
 * (src-shared/testing/fuzz-mutations.ts) from real ones: the shipped sample recordings, SSE
 * captures, NDJSON envelopes, an envelope export (with its legs' head lines) and a HAR.
 * Whatever the damage, opening a file either refuses it with an ImportError that says why, or
 * gives a source whose every leg reads to the end and decodes, with findings of the catalogue
 * that say something; nothing else is thrown. A failure names its (seed, input) pair, from
 * which the input is made again.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../src-shared/diagnostics/rules';
import { buildHar, type HarExportLeg } from '../../../src-shared/export/har';
import { decodeLegs } from '../../../src-shared/pipeline/session-decoder';
import { seededRandom } from '../../../src-shared/sse/rechunk';
import { int, pick } from '../../../src-shared/testing/fuzz';
import { mutations } from '../../../src-shared/testing/fuzz-mutations';
import { legHeadLine } from '../../../src-shared/recording/envelope-export';
import { encodeUtf8 } from '../../../src-shared/text/utf8';
import { readFixture, readProjectText } from '../../testing/fixtures';
import { openSource } from './index';
import { dataLines, readLegs, tempFiles } from './testing';
import { ImportError, type ImportedSource } from './types';

const SEED = 20_261_130;
/** About two seconds on an idle CI core. */
const INPUTS = 150;

const { file } = tempFiles();

const sample = (name: string): Uint8Array => encodeUtf8(readProjectText(join('resources/samples', name)));

/** A HAR of two SSE responses, as this inspector exports one. */
function harOf(...bodies: Uint8Array[]): Uint8Array {
  const legs = bodies.map((body, i): HarExportLeg => ({
    request: { method: 'POST', url: `http://127.0.0.1:8000/agent/run?leg=${i}`, headers: [], body: '{}' },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/event-stream']] },
    startedAt: Date.UTC(2026, 10, 30, 0, 0, i),
    body,
    end: { reason: 'done' },
    stream: true,
  }));
  return encodeUtf8(buildHar({ creator: { name: 'fuzz', version: '1' }, legs }));
}

/**
 * This inspector's envelope export, as its writer lays it out: a head line per leg, the
 * stream's bytes on its envelope line; a second leg refused with its error page on its head.
 */
function envelopeExportOf(stream: Uint8Array): Uint8Array {
  const head = { startedAt: 0, request: null, response: null };
  const envelope = { seq: 0, leg: 0, frame: 0, agent: 'a', type: 'text', final: false, delta: 'x', extras: {} };
  const lines = [
    legHeadLine({ leg: 0, ...head, stream: true, end: { reason: 'done' } }),
    `${JSON.stringify({ ...envelope, dialect: 'json', byteStart: 0, byteEnd: stream.length, wire: new TextDecoder().decode(stream) })}\n`,
    legHeadLine(
      {
        leg: 1,
        ...head,
        response: { status: 422, statusText: 'Unprocessable Entity', headers: [['Content-Type', 'application/json']] },
        stream: false,
        end: { reason: 'error', message: 'HTTP 422' },
      },
      { bytes: encodeUtf8('{"detail":"bad"}'), receivedAt: 5 },
    ),
  ];
  return encodeUtf8(lines.join(''));
}

const SEEDS: { name: string; bytes: Uint8Array }[] = [
  ...['tour.json.recording', 'tour.xml.recording', 'multi-agent.recording', 'frontend-tool.recording'].map((name) => ({
    name,
    bytes: sample(name),
  })),
  { name: 'example_1.json.sse', bytes: readFixture('example_1.json.sse') },
  { name: 'example_1.raw.sse', bytes: readFixture('example_1.raw.sse') },
  { name: 'json_stream.ndjson', bytes: encodeUtf8(dataLines('json_stream.json.sse').join('\n')) },
  { name: 'frontend_tools.export.ndjson', bytes: envelopeExportOf(readFixture('frontend_tools.json.sse')) },
  {
    name: 'frontend_tools.har',
    bytes: harOf(readFixture('frontend_tools.json.sse'), readFixture('example_1.json.sse')),
  },
];

/** How opening one input went: refused with a reason, read to the end, or what went wrong. */
type Outcome = { kind: 'refused' } | { kind: 'read' } | { kind: 'failed'; why: string };

/** `open`: the importers' entry, or a stand-in that shows the check can fail. */
async function openAndRead(
  path: string,
  open: (path: string) => Promise<ImportedSource> = openSource,
): Promise<Outcome> {
  const thrown = (what: string, error: unknown): Outcome => ({
    kind: 'failed',
    why: `${what} threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`,
  });
  let source;
  try {
    source = await open(path);
  } catch (error) {
    return error instanceof ImportError && error.message.trim() !== ''
      ? { kind: 'refused' }
      : thrown('openSource', error);
  }
  try {
    decodeLegs(await readLegs(source));
  } catch (error) {
    return thrown('reading or decoding the source', error);
  }
  for (const d of source.diagnostics) {
    if (!(d.rule in RULES))
      return { kind: 'failed', why: `a finding of rule ${d.rule}, which is not in the catalogue` };
    if (d.message.trim() === '') return { kind: 'failed', why: `a finding of rule ${d.rule} says nothing` };
  }
  return { kind: 'read' };
}

describe('damaged files of every kind the importers read', () => {
  it(`refuse with a reason or open to the end, never throwing anything else (seed ${SEED}, ${INPUTS} inputs)`, async () => {
    const all = mutations({ hugeLineBytes: 64 * 1024 });
    const failures: string[] = [];
    const opened = { refused: 0, read: 0 };
    for (let index = 0; index < INPUTS; index++) {
      const random = seededRandom((SEED * 1_000_003 + index) >>> 0);
      const base = SEEDS[index % SEEDS.length] as (typeof SEEDS)[number];
      let bytes = base.bytes;
      const recipe = [base.name];
      for (let n = 1 + int(random, 3); n > 0; n--) {
        const mutation = pick(random, all);
        bytes = mutation.apply(bytes, random, pick(random, SEEDS).bytes);
        recipe.push(mutation.name);
      }
      const outcome = await openAndRead(await file(`input-${index}-${base.name}`, bytes));
      if (outcome.kind === 'failed') failures.push(`input ${index} (${recipe.join(' + ')}): ${outcome.why}`);
      else opened[outcome.kind]++;
    }
    expect(failures).toEqual([]);
    // Both outcomes occur: the inputs are neither all refused nor all harmless (most damage
    // leaves a file its importer still reads, reporting what it skipped).
    expect(opened.refused).toBeGreaterThan(INPUTS / 40);
    expect(opened.read).toBeGreaterThan(INPUTS / 2);
  }, 120_000);
});

describe('the seeds', () => {
  it('the envelope export opens undamaged as one, its two legs with their heads', async () => {
    const seed = SEEDS.find((s) => s.name === 'frontend_tools.export.ndjson');
    const source = await openSource(await file('seed.ndjson', seed!.bytes));
    expect(source.kind).toBe('ndjson-envelopes');
    expect(source.legs.map((leg) => [leg.stream, leg.response?.status, leg.outcome?.reason])).toEqual([
      [true, undefined, 'done'],
      [false, 422, 'error'],
    ]);
    expect(source.diagnostics).toEqual([]);
  });
});

describe('the check can fail', () => {
  it('on anything thrown but an ImportError, and on a finding outside the catalogue or saying nothing', async () => {
    const path = await file('plain.sse', readFixture('example_1.json.sse'));
    expect(await openAndRead(path)).toEqual({ kind: 'read' });
    // A file that cannot be read is refused in words too.
    expect(await openAndRead(join(path, 'missing'))).toEqual({ kind: 'refused' });
    expect(await openAndRead(path, () => Promise.reject(new TypeError('x is undefined')))).toEqual({
      kind: 'failed',
      why: 'openSource threw TypeError: x is undefined',
    });
    const withFinding = (rule: string, message: string) => async (p: string) => {
      const source = await openSource(p);
      const finding = { rule, message, severity: 'warning', at: { line: 1 } };
      return { ...source, diagnostics: [finding] } as unknown as ImportedSource;
    };
    expect(await openAndRead(path, withFinding('import.no-such-rule', 'x'))).toMatchObject({
      why: expect.stringMatching(/not in the catalogue/) as unknown,
    });
    expect(await openAndRead(path, withFinding('import.truncated', ' '))).toMatchObject({
      why: expect.stringMatching(/says nothing/) as unknown,
    });
  });
});
