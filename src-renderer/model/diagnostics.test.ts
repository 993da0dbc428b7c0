import { describe, expect, test } from 'vitest';
import type { DiagnosticPayload } from '../../src-shared/contract';
import { RULES } from '../../src-shared/diagnostics/rules';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture, readProjectText } from '../../src-main/testing/fixtures';
import { sessionPayloads } from './blocks-testing';
import {
  bytesOf,
  filterGroups,
  findRow,
  groupByRule,
  locationLabel,
  parseRuleDocs,
  severityCounts,
  type RowPosition,
} from './diagnostics';

function finding(
  seq: number,
  rule: string,
  severity: DiagnosticPayload['severity'],
  at: DiagnosticPayload['at'] = {},
  message = `${rule} #${seq}`,
): DiagnosticPayload {
  return { seq, rule, severity, message, at };
}

describe('groupByRule', () => {
  test('groups by rule, errors first, then by count, with the catalogue title', () => {
    const groups = groupByRule([
      finding(0, 'stream.missing-done', 'warning'),
      finding(1, 'sse.multi-line-data', 'info'),
      finding(2, 'sse.multi-line-data', 'info'),
      finding(3, 'json.invalid', 'error'),
      finding(4, 'envelope.over-budget', 'warning'),
      finding(5, 'envelope.over-budget', 'warning'),
    ]);
    expect(groups.map((g) => [g.rule, g.count])).toEqual([
      ['json.invalid', 1],
      ['envelope.over-budget', 2],
      ['stream.missing-done', 1],
      ['sse.multi-line-data', 2],
    ]);
    expect(groups[0]?.title).toBe(RULES['json.invalid'].title);
    expect(groups[0]?.known).toBe(true);
  });

  test('a rule the renderer does not know keeps its id as title and the worst severity seen', () => {
    const [group] = groupByRule([finding(0, 'future.rule', 'info'), finding(1, 'future.rule', 'error')]);
    expect(group).toMatchObject({
      rule: 'future.rule',
      title: 'future.rule',
      severity: 'error',
      known: false,
      layer: 'unknown',
    });
  });

  test('error_midstream.json: the real stream groups its error frame finding', () => {
    const result = decodeBytes(readFixture('error_midstream.json.sse'));
    const groups = groupByRule(sessionPayloads(result).diagnostics);
    expect(
      groups
        .filter((g) => g.severity === 'error')
        .map((g) => g.rule)
        .sort(),
    ).toEqual(['block.unterminated', 'stream.error-frame']);
    expect(groups[0]?.severity).toBe('error');
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(result.diagnostics.length);
  });
});

describe('filterGroups', () => {
  const groups = groupByRule([
    finding(0, 'json.invalid', 'error', {}, 'bad JSON at 3'),
    finding(1, 'sse.multi-line-data', 'info', {}, 'two data lines'),
  ]);
  test('by severity', () => {
    expect(filterGroups(groups, { error: false, warning: true, info: true }, '').map((g) => g.rule)).toEqual([
      'sse.multi-line-data',
    ]);
  });
  test('by text over rule id, title and messages', () => {
    expect(filterGroups(groups, { error: true, warning: true, info: true }, 'SSE.MULTI').map((g) => g.rule)).toEqual([
      'sse.multi-line-data',
    ]);
    const byMessage = filterGroups(groups, { error: true, warning: true, info: true }, 'at 3');
    expect(byMessage.map((g) => [g.rule, g.count])).toEqual([['json.invalid', 1]]);
  });
});

test('severityCounts', () => {
  expect(severityCounts([finding(0, 'a.b', 'error'), finding(1, 'a.b', 'info'), finding(2, 'a.c', 'info')])).toEqual({
    error: 1,
    warning: 0,
    info: 2,
  });
});

describe('locations', () => {
  test.each([
    [{}, 'whole session'],
    [{ leg: 0, byteStart: 10, byteEnd: 20, frame: 2 }, 'bytes 10–20 · frame 2'],
    [{ leg: 1, envelope: 5, block: 3 }, 'leg 1 · envelope 5 · block 3'],
    [{ byteStart: 4, byteEnd: 4 }, 'byte 4'],
    [{ fileOffset: 100, line: 3 }, 'file line 3'],
  ])('%j → %s', (at, label) => {
    expect(locationLabel(at)).toBe(label);
  });

  test('bytesOf: the finding range in its leg, one byte when it has no end', () => {
    expect(bytesOf({ leg: 2, byteStart: 5, byteEnd: 9 })).toEqual({ leg: 2, start: 5, end: 9 });
    expect(bytesOf({ byteStart: 5 })).toEqual({ leg: 0, start: 5, end: 6 });
    expect(bytesOf({ envelope: 1 })).toBeNull();
  });
});

describe('findRow', () => {
  // Two legs; frames hold one or two envelopes; leg 1 starts at byte 0 again.
  const rows: RowPosition[] = [
    { leg: 0, frame: 0, byteStart: 0 },
    { leg: 0, frame: 1, byteStart: 40 },
    { leg: 0, frame: 1, byteStart: 40 },
    { leg: 0, frame: 3, byteStart: 120 },
    { leg: 1, frame: 0, byteStart: 0 },
    { leg: 1, frame: 1, byteStart: 30 },
  ];
  const probes: number[] = [];
  const probe = (seq: number): Promise<RowPosition> => {
    probes.push(seq);
    return Promise.resolve(rows[seq] as RowPosition);
  };
  const none = (): undefined => undefined;

  test('an envelope is its own row; a block its first envelope', async () => {
    expect(await findRow({ envelope: 3 }, rows.length, none, probe)).toBe(3);
    expect(await findRow({ envelope: 99 }, rows.length, none, probe)).toBeNull();
    expect(await findRow({ block: 7 }, rows.length, (b) => (b === 7 ? 2 : undefined), probe)).toBe(2);
  });

  test('a frame lands on its first envelope, in the right leg', async () => {
    expect(await findRow({ leg: 0, frame: 1 }, rows.length, none, probe)).toBe(1);
    expect(await findRow({ leg: 1, frame: 1 }, rows.length, none, probe)).toBe(5);
  });

  test('a frame without envelopes (ignored lines) lands on the next envelope of the leg, else the previous', async () => {
    expect(await findRow({ leg: 0, frame: 2 }, rows.length, none, probe)).toBe(3);
    expect(await findRow({ leg: 0, frame: 9 }, rows.length, none, probe)).toBe(3);
    expect(await findRow({ leg: 1, byteStart: 500 }, rows.length, none, probe)).toBe(5);
  });

  test('bytes only: the first envelope at or after the offset', async () => {
    expect(await findRow({ leg: 0, byteStart: 41 }, rows.length, none, probe)).toBe(3);
    expect(await findRow({ byteStart: 0 }, rows.length, none, probe)).toBe(0);
  });

  test('a leg with no envelopes, or no rows, gives no row', async () => {
    expect(await findRow({ leg: 4, frame: 0 }, rows.length, none, probe)).toBeNull();
    expect(await findRow({ frame: 0 }, 0, none, probe)).toBeNull();
  });

  test('probes O(log n) rows', async () => {
    const many = Array.from({ length: 100_000 }, (_, i): RowPosition => ({ leg: 0, frame: i, byteStart: i * 10 }));
    let calls = 0;
    const row = await findRow({ frame: 77_777 }, many.length, none, (seq) => {
      calls++;
      return Promise.resolve(many[seq] as RowPosition);
    });
    expect(row).toBe(77_777);
    expect(calls).toBeLessThan(25);
  });
});

describe('parseRuleDocs', () => {
  test('splits sections by rule heading and joins a rule documented twice', () => {
    const docs = parseRuleDocs(
      [
        '# Title',
        '## Layer',
        '<!-- x rules -->',
        'intro',
        '### `a.one` (error)',
        'First.',
        '',
        '```',
        'data: x',
        '```',
        '### `a.two` (info)',
        'Second.',
        '### `a.one`, again',
        'More.',
        '## Next',
        'not a rule',
      ].join('\n'),
    );
    expect([...docs.keys()]).toEqual(['a.one', 'a.two']);
    expect(docs.get('a.one')).toBe('First.\n\n```\ndata: x\n```\n\nMore.');
    expect(docs.get('a.two')).toBe('Second.');
  });

  test('docs/diagnostics.md: every decoder rule has its section', () => {
    const markdown = readProjectText('docs/diagnostics.md');
    const docs = parseRuleDocs(markdown);
    const missing = (Object.keys(RULES) as (keyof typeof RULES)[]).filter(
      (rule) => !docs.has(rule) && RULES[rule].layer !== 'recording',
    );
    expect(missing).toEqual([]);
    expect(docs.get('sse.ignored-line')).toContain('A line that is not a field');
  });
});
