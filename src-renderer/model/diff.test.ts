import { describe, expect, test } from 'vitest';
import type { SessionSummary } from '../../src-shared/contract';
import { diffSessions } from '../../src-shared/diff/diff';
import type { SessionDiff } from '../../src-shared/diff/types';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../src-main/testing/fixtures';
import {
  ALL_STATUSES,
  exportFileName,
  filterRows,
  firstInterestingRow,
  headline,
  pairLabel,
  rowLanguage,
  scenarioKey,
  suggestPair,
} from './diff';

function diffOf(left: string, right: string): SessionDiff {
  return diffSessions(decodeBytes(readFixture(left)), decodeBytes(readFixture(right)));
}

function session(
  id: string,
  title: string,
  format: SessionSummary['format'],
  source: SessionSummary['source'],
  state: SessionSummary['state'] = 'complete',
): SessionSummary {
  return {
    id,
    title,
    source,
    state,
    format,
    createdAt: 0,
    legs: 1,
    envelopes: 1,
    bytes: 1,
    diagnostics: { error: 0, warning: 0, info: 0 },
    awaitingTools: false,
  };
}

const file = (path: string): SessionSummary['source'] => ({ kind: 'file', path, importer: 'sse' });
const live = (url: string): SessionSummary['source'] => ({ kind: 'live', method: 'POST', url });

describe('scenarioKey and suggestPair', () => {
  test('one run in two formats has one key; another run another key', () => {
    expect(scenarioKey(session('a', 'example_1.json.sse', 'json', file('/f/example_1.json.sse')))).toBe(
      scenarioKey(session('b', 'example_1.xml.sse', 'xml', file('/f/example_1.xml.sse'))),
    );
    expect(scenarioKey(session('a', 'x', 'json', file('/f/example_1.json.sse')))).not.toBe(
      scenarioKey(session('b', 'x', 'xml', file('/f/multi_agent.xml.sse'))),
    );
    const demo = (fmt: string) =>
      session(
        fmt,
        `Demo multi_agent (${fmt})`,
        fmt as 'json',
        live(`http://127.0.0.1:5/agent/run?format=${fmt}&scenario=multi_agent`),
      );
    expect(scenarioKey(demo('json'))).toBe(scenarioKey(demo('xml')));
  });

  test('prefers the same scenario in two formats, xml on the left', () => {
    // Newest first, as the sessions list is.
    const list = [
      session('s4', 'other', 'json', file('/f/probe_citations.json.sse')),
      session('s3', 'example_1.json.sse', 'json', file('/f/example_1.json.sse')),
      session('s2', 'streaming', 'xml', file('/f/example_1.xml.sse'), 'streaming'),
      session('s1', 'example_1.xml.sse', 'xml', file('/f/example_1.xml.sse')),
    ];
    expect(suggestPair(list)).toEqual({ left: 's1', right: 's3' });
  });

  test('the older format goes left whatever the order: xml before raw, raw before a provider API', () => {
    const pair = (newer: 'xml' | 'raw' | 'anthropic-messages', older: 'xml' | 'raw' | 'anthropic-messages') =>
      suggestPair([
        session('new', 'run.sse', newer, file('/f/run.sse')),
        session('old', 'run.sse', older, file('/f/run.sse')),
      ]);
    expect(pair('xml', 'raw')).toEqual({ left: 'new', right: 'old' });
    expect(pair('raw', 'xml')).toEqual({ left: 'old', right: 'new' });
    expect(pair('raw', 'anthropic-messages')).toEqual({ left: 'new', right: 'old' });
    expect(pair('anthropic-messages', 'raw')).toEqual({ left: 'old', right: 'new' });
  });

  test('falls back to the two newest finished sessions, older on the left; null with fewer than two', () => {
    const list = [
      session('b', 'one', 'json', file('/f/a.json.sse')),
      session('a', 'two', 'json', file('/f/b.json.sse')),
    ];
    expect(suggestPair(list)).toEqual({ left: 'a', right: 'b' });
    expect(suggestPair(list.slice(0, 1))).toBeNull();
  });

  test('regression: a real run was paired with a failed connection that had no envelopes — only sessions with envelopes pair', () => {
    const failed = {
      ...session('f', 'POST 127.0.0.1:1/agent/run', null, live('http://127.0.0.1:1/agent/run'), 'failed'),
      envelopes: 0,
    };
    const list = [
      failed,
      session('b', 'one', 'json', file('/f/a.json.sse')),
      session('a', 'two', 'json', file('/f/b.json.sse')),
    ];
    expect(suggestPair(list)).toEqual({ left: 'a', right: 'b' });
    expect(suggestPair([failed, session('b', 'one', 'json', file('/f/a.json.sse'))])).toBeNull();
  });
});

describe('on real diffs', () => {
  test('example_1 in xml and json: no real block differences', () => {
    const diff = diffOf('example_1.xml.sse', 'example_1.json.sse');
    expect(diff.counts.differences).toBe(0);
    expect(headline(diff.counts)).toMatch(/^(No block differences|No real differences)/);
  });

  test('two different scenarios: differences, and the first interesting row is one of them', () => {
    const diff = diffOf('example_1.json.sse', 'probe_citations.json.sse');
    expect(diff.counts.differences).toBeGreaterThan(0);
    expect(headline(diff.counts)).toMatch(/^\d+ differences?/);
    const first = firstInterestingRow(diff.rows);
    expect(first).not.toBeNull();
    const row = diff.rows[first ?? 0];
    expect(row?.status).not.toBe('equal');
    expect(row?.inherent).toBeUndefined();
  });

  test('filterRows by status, inherent and text, keeping row indexes', () => {
    const diff = diffOf('example_1.json.sse', 'probe_citations.json.sse');
    const all = filterRows(diff.rows, { statuses: new Set(ALL_STATUSES), hideInherent: false, text: '' });
    expect(all).toHaveLength(diff.rows.length);
    const changed = filterRows(diff.rows, { statuses: new Set(['changed'] as const), hideInherent: false, text: '' });
    expect(changed.length).toBe(diff.counts.changed);
    expect(changed.every(({ index, row }) => diff.rows[index] === row)).toBe(true);
    const texts = filterRows(diff.rows, { statuses: new Set(ALL_STATUSES), hideInherent: false, text: 'TEXT' });
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every(({ row }) => `${row.kind} ${row.name ?? ''} ${row.reason}`.toLowerCase().includes('text'))).toBe(
      true,
    );
  });

  test("an export's file name names the two sessions", () => {
    const left = session('l', 'example_1 xml', 'xml', file('/f/example_1.xml.sse'));
    const right = session('r', 'example_1 json', 'json', file('/f/example_1.json.sse'));
    expect(exportFileName(left, right)).toBe('diff-example-1-xml--example-1-json.json');
    expect(exportFileName({ title: '∅' }, { title: '' })).toBe('diff-session--session.json');
  });

  test('multi_agent xml vs json is flattened: every pair label says so', () => {
    const diff = diffOf('multi_agent.xml.sse', 'multi_agent.json.sse');
    expect(diff.flattened).toBe(true);
    expect(pairLabel(diff, 0)).toBe('all agents');
  });
});

test('pairLabel names both agent ids only when they differ, each as shortId shows it', () => {
  const diff = {
    flattened: false,
    agents: [
      {
        left: '22222222-2222-4222-8222-222222222222',
        right: '22222222-2222-4222-8222-222222222222',
        by: 'uuid' as const,
      },
      { left: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', right: 'run-b', by: 'order' as const },
      { left: 'cccccccc', by: 'unmatched' as const },
    ],
  };
  expect([pairLabel(diff, 0), pairLabel(diff, 1), pairLabel(diff, 2), pairLabel(diff, 9)]).toEqual([
    '22222222',
    'aaaaaaaa ↔ run-b',
    'cccccccc ↔ —',
    '—',
  ]);
});

test('rowLanguage', () => {
  expect(rowLanguage({ kind: 'text', left: { blockId: 0, agent: '', text: '# hi' } })).toBe('markdown');
  expect(rowLanguage({ kind: 'tool_call', right: { blockId: 0, agent: '', text: ' {"a":1}' } })).toBe('json');
  expect(rowLanguage({ kind: 'tool_result', left: { blockId: 0, agent: '', text: '25' } })).toBe('plaintext');
});
