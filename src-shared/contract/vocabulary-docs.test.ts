import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEVERITIES, SEVERITIES_MILDEST_FIRST } from '../diagnostics/severity';
import { DETECTION_BASES, DETECTION_BASIS_NAMES } from '../dialects/detection';
import { CONTROL_KINDS } from '../envelope/types';
import { isStreamedEnvelopeType, SEED_ENVELOPE_TYPES } from '../envelope/vocabulary';
import { ENVELOPE_FIELDS } from '../filter/envelope-fields';
import { INLINE_MODES } from '../inline/types';
import { END_STATUS_KINDS, END_STATUSES, isBadEnd } from '../pipeline/end-status';
import { BLOCK_STATUSES } from '../reconstruct/types';

/**
 * The docs tables are written by hand; each vocabulary is declared once in code. These tests
 * keep the two the same, so a new entry in a table fails here until the docs name it.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const doc = (name: string): string => readFileSync(join(root, 'docs', name), 'utf8');

/** The rows of the Markdown table whose header row is `header`, as cells. */
function tableRows(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === header);
  if (start < 0) throw new Error(`no table headed ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** The `code` spans of a Markdown cell, in order. */
const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe('docs/diagnostics.md', () => {
  const text = doc('diagnostics.md');

  it('lists every end status with its label, in the order of the table in code', () => {
    const rows = tableRows(text, '| status | label | when |');
    expect(rows.map(([status, label]) => [codeSpans(status!)[0], label])).toEqual(
      END_STATUS_KINDS.map((kind) => [kind, END_STATUSES[kind].label]),
    );
  });

  it('names the bad end statuses as those `--fail-on end` fails on', () => {
    const row = tableRows(text, '| value | fails when |').find(([value]) => value === '`end`');
    expect(codeSpans(row![1]!)).toEqual(END_STATUS_KINDS.filter(isBadEnd));
  });

  it('names the severities, worst first, where it introduces them and in --fail-on', () => {
    expect(text.replace(/\s+/g, ' ')).toContain(`a severity (${SEVERITIES.map((s) => `\`${s}\``).join(', ')})`);
    const row = tableRows(text, '| value | fails when |')[0]!;
    expect(codeSpans(row[0]!)).toEqual([...SEVERITIES]);
  });
});

describe('docs/filters.md', () => {
  const rows = tableRows(doc('filters.md'), '| field | type | what |');
  const documented = (field: string): string => rows.find(([name]) => codeSpans(name!).includes(field))![2]!;

  it.each([
    ['block.status', BLOCK_STATUSES],
    ['control', CONTROL_KINDS],
    ['finding.severity', SEVERITIES_MILDEST_FIRST],
  ] as const)('%s lists the values the filter offers, in order', (field, values) => {
    expect(codeSpans(documented(field))).toEqual([...values]);
    expect(ENVELOPE_FIELDS.field(field)?.values).toEqual(values);
  });

  it('orders finding.severity as the filter compares it', () => {
    expect(documented('finding.severity')).toContain(SEVERITIES_MILDEST_FIRST.map((s) => `\`${s}\``).join(' < '));
    expect(ENVELOPE_FIELDS.field('finding.severity')?.order).toEqual(SEVERITIES_MILDEST_FIRST);
  });
});

describe('docs/inline.md', () => {
  it('lists every inline mode', () => {
    const rows = tableRows(doc('inline.md'), '| mode | reads |');
    expect(rows.map(([mode]) => codeSpans(mode!)[0])).toEqual([...INLINE_MODES]);
  });
});

describe('docs/protocols/json-envelopes.md', () => {
  it('lists the seed envelope kinds in order, the streamed ones as incremental', () => {
    const rows = tableRows(
      doc('protocols/json-envelopes.md'),
      '| `type` | extra fields | emission | emitted by | `delta` carries |',
    );
    expect(rows.map(([type, , emission]) => [codeSpans(type!)[0], emission])).toEqual(
      SEED_ENVELOPE_TYPES.map((type) => [type, isStreamedEnvelopeType(type) ? 'incremental' : 'buffered']),
    );
  });
});

describe('docs/dialects.md', () => {
  it('lists every detection reason with what it says, in the order of the table in code', () => {
    const rows = tableRows(doc('dialects.md'), '| reason | says |');
    expect(rows.map(([reason, says]) => [codeSpans(reason!)[0], says])).toEqual(
      DETECTION_BASIS_NAMES.map((basis) => [basis, DETECTION_BASES[basis].says]),
    );
  });
});
