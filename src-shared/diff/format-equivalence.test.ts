/**
 * The files of one upstream run in different formats reconstruct to equivalent blocks: the
 * diff finds no difference between any two of them except the inherent ones that
 * docs/format-equivalence.md lists, fixture by fixture.
 */
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import { listSseFixtures, readFixture } from '../../src-main/testing/fixtures';
import { diffSessions } from './diff';
import type { NormalisationId } from './normalisations';
import { diffTranscript } from './transcript';
import type { DiffRow, SessionDiff } from './types';

const FORMATS = ['json', 'xml', 'raw', 'agent_base.json'] as const;
type Format = (typeof FORMATS)[number];

/** NAME → formats present, for every run recorded in more than one format. */
function runsWithSeveralFormats(): Map<string, Format[]> {
  const runs = new Map<string, Format[]>();
  for (const file of listSseFixtures()) {
    const format = [...FORMATS].sort((a, b) => b.length - a.length).find((f) => file.endsWith(`.${f}.sse`));
    if (!format) continue;
    const name = file.slice(0, -`.${format}.sse`.length);
    runs.set(name, [...(runs.get(name) ?? []), format]);
  }
  for (const [name, formats] of runs) {
    if (formats.length < 2) runs.delete(name);
    else formats.sort((a, b) => FORMATS.indexOf(a) - FORMATS.indexOf(b));
  }
  return runs;
}

/**
 * Rows that remain different, per pair "NAME: LEFT ~ RIGHT" (formats in FORMATS order), as
 * "status kind inherent-id". Every pair not listed has none.
 */
const REMAINING: Record<string, string[]> = {
  'example_1: json ~ agent_base.json': ['only-left meta_files agent-base-no-meta-files'],
  'example_1: xml ~ agent_base.json': ['only-left meta_files agent-base-no-meta-files'],
  'example_1: raw ~ agent_base.json': ['only-left meta_files agent-base-no-meta-files'],
  'frontend_tools_resume: json ~ agent_base.json': [
    'only-left tool_result resume-frontend-tool-result',
    'only-right meta_init resume-meta-init',
  ],
  'frontend_tools_resume: xml ~ agent_base.json': [
    'only-left tool_result resume-frontend-tool-result',
    'only-right meta_init resume-meta-init',
  ],
  'frontend_tools_resume: raw ~ agent_base.json': [
    'only-left tool_result resume-frontend-tool-result',
    'only-right meta_init resume-meta-init',
  ],
  'multi_agent: json ~ xml': [
    'changed text unattributed-sub-agents',
    'changed thinking unattributed-sub-agents',
    'changed text unattributed-sub-agents',
    'changed text unattributed-sub-agents',
  ],
  'probe_escaping: json ~ xml': ['changed text xml-unescaped-cr'],
  'probe_escaping: xml ~ raw': ['changed text xml-unescaped-cr'],
};

/** Normalisations used across all pairs of a run: what its formats differ by, losslessly. */
const NORMALISED: Record<string, NormalisationId[]> = {
  example_1: ['history-key', 'json-value', 'meta-final-generation', 'meta-format-field', 'server-tool-result-repr'],
  json_stream: ['history-key', 'json-value', 'meta-final-generation', 'meta-format-field'],
  multi_agent: ['agent-attribution', 'json-value', 'meta-format-field'],
  frontend_tools: ['awaiting-tools-object', 'history-key', 'json-value', 'meta-format-field', 'tool-result-images'],
  frontend_tools_resume: ['history-key', 'json-value', 'meta-final-generation'],
  probe_escaping: ['json-value', 'meta-format-field', 'server-tool-result-repr', 'xml-tool-result-newlines'],
  probe_citations: ['history-key', 'json-value', 'meta-final-generation', 'meta-format-field'],
  retry_midstream: ['history-key', 'json-value', 'meta-final-generation'],
};

const remaining = (rows: readonly DiffRow[]): string[] =>
  rows.filter((r) => r.status !== 'equal').map((r) => `${r.status} ${r.kind} ${r.inherent ?? 'UNEXPLAINED'}`);

/** Each block of each side is in exactly one row. */
function expectEveryBlockOnce(diff: SessionDiff, left: DecodeResult, right: DecodeResult): void {
  const ids = (side: 'left' | 'right'): number[] =>
    diff.rows.flatMap((r) => (r[side] ? [r[side].blockId] : [])).sort((a, b) => a - b);
  expect(ids('left')).toEqual(left.blocks.map((b) => b.id).sort((a, b) => a - b));
  expect(ids('right')).toEqual(right.blocks.map((b) => b.id).sort((a, b) => a - b));
}

describe('format equivalence of the upstream fixtures', () => {
  const runs = runsWithSeveralFormats();
  const decoded = new Map<string, DecodeResult>();
  const decode = (file: string): DecodeResult => {
    let result = decoded.get(file);
    if (!result) {
      result = decodeBytes(readFixture(file));
      decoded.set(file, result);
    }
    return result;
  };

  it('covers every run recorded in several formats', () => {
    expect([...runs.keys()].sort()).toEqual(Object.keys(NORMALISED).sort());
  });

  const pairs = [...runs].flatMap(([name, formats]) =>
    formats.flatMap((l, i) => formats.slice(i + 1).map((r) => ({ name, left: l, right: r }))),
  );
  const normalisedByRun = new Map<string, Set<NormalisationId>>();

  it.each(pairs)('$name: $left ~ $right differ only as documented', ({ name, left, right }) => {
    const l = decode(`${name}.${left}.sse`);
    const r = decode(`${name}.${right}.sse`);
    const diff = diffSessions(l, r);
    expect(remaining(diff.rows)).toEqual(REMAINING[`${name}: ${left} ~ ${right}`] ?? []);
    expect(diff.counts.differences).toBe(0);
    expect(diff.counts.equal).toBeGreaterThan(0);
    expectEveryBlockOnce(diff, l, r);

    const used = normalisedByRun.get(name) ?? new Set<NormalisationId>();
    for (const row of diff.rows) for (const id of row.normalisations) used.add(id);
    normalisedByRun.set(name, used);

    // The other way round: the same rows, sides swapped.
    const swapped = diffSessions(r, l);
    expect(swapped.counts).toEqual({
      ...diff.counts,
      onlyLeft: diff.counts.onlyRight,
      onlyRight: diff.counts.onlyLeft,
    });

    // A transcript diff shows nothing where the row table shows nothing.
    if (diff.counts.equal === diff.rows.length) {
      const transcript = diffTranscript(diff);
      expect(transcript.left).toBe(transcript.right);
    }
  });

  it('uses exactly the documented normalisations per run', () => {
    for (const [name, ids] of Object.entries(NORMALISED))
      expect([...(normalisedByRun.get(name) ?? [])].sort(), name).toEqual(ids);
  });

  it.each([...runs].flatMap(([name, formats]) => formats.map((f) => `${name}.${f}.sse`)))(
    '%s is equal to itself with no normalisation',
    (file) => {
      const result = decode(file);
      const diff = diffSessions(result, result);
      expect(diff.rows.every((r) => r.status === 'equal' && r.normalisations.length === 0)).toBe(true);
      expect(diff.envelopes.differences).toEqual([]);
    },
  );
});
