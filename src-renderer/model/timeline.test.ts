import { describe, expect, it } from 'vitest';
import type { FilterRowsRequest, RowsRequest, TimelineRow } from '../../src-shared/contract';
import { ENVELOPE_FIELDS, parseFilter } from '../../src-shared/filter';
import type { FieldSpec } from '../../src-shared/filter/fields';
import { compileFilter, type SubjectReader } from '../../src-shared/filter/evaluate';
import { row, rows, rowsBatch, settle } from '../testing/fake-service';
import { PAGE_SIZE } from './row-cache';
import { EMPTY_FILTER, type TimelineFilter } from './row-filter';
import { createManualScheduler } from './scheduler';
import { SEARCH_REFRESH_MS, TimelineModel } from './timeline';

/** The shared evaluator over full rows: what main's filterRows does over its envelopes. */
const ROW_READER: SubjectReader<TimelineRow> = {
  field(name) {
    const spec: FieldSpec = ENVELOPE_FIELDS.field(name)!;
    const get: Record<string, (r: TimelineRow) => string | boolean | string[] | undefined> = {
      type: (r) => r.type,
      agent: (r) => r.agent,
      final: (r) => r.final,
      delta: (r) => r.preview,
      'finding.severity': (r) => (r.severity ? [r.severity] : []),
    };
    return get[name] ? { ...spec, get: get[name] } : undefined;
  },
  text: (r) => [r.preview, r.type, r.agent],
};

/** Main's side of the rows: a full list served by getRows and filtered by filterRows. */
function mainRows(all: TimelineRow[]) {
  const requests: RowsRequest[] = [];
  const searches: FilterRowsRequest[] = [];
  const service = {
    getRows: (req: RowsRequest) => {
      requests.push(req);
      return Promise.resolve({
        total: all.length,
        start: req.start,
        rows: all.slice(req.start, req.start + req.count),
      });
    },
    filterRows: (req: FilterRowsRequest) => {
      searches.push(req);
      const match = compileFilter(parseFilter(req.expression), ROW_READER);
      return Promise.resolve({ seqs: all.filter(match).map((r) => r.seq), truncated: false });
    },
  };
  return { service, requests, searches };
}

function model(all: TimelineRow[] = []) {
  const main = mainRows(all);
  const scheduler = createManualScheduler();
  const errors: string[] = [];
  const timeline = new TimelineModel('s1', {
    service: main.service,
    scheduler,
    reportError: (c, e) => errors.push(`${c}: ${String(e)}`),
  });
  return { timeline, main, scheduler, errors };
}

function visible(timeline: TimelineModel): number[] {
  const seqs: number[] = [];
  for (let p = 0; p < timeline.getSnapshot().visibleCount; p++) seqs.push(timeline.seqAt(p)!);
  return seqs;
}

const filter = (expression: string): TimelineFilter => ({ ...EMPTY_FILTER, expression });

describe('timeline model', () => {
  it('shows every row in seq order without a filter, and notifies once per applied batch', () => {
    const { timeline } = model();
    let notifications = 0;
    timeline.subscribe(() => notifications++);
    timeline.applyBatch(rowsBatch(rows(0, 3), [], 3));
    timeline.applyBatch(rowsBatch(rows(3, 5), [], 5));
    expect(notifications).toBe(2);
    expect(timeline.getSnapshot()).toMatchObject({ total: 5, visibleCount: 5, filterActive: false });
    expect(visible(timeline)).toEqual([0, 1, 2, 3, 4]);
    expect(timeline.getRow(4)?.preview).toBe('delta 4');
  });

  it('filters by agent, type, final and severity, and keeps the filter as rows arrive', () => {
    const { timeline } = model();
    const kind = (seq: number): Partial<TimelineRow> => ({
      agent: seq % 2 === 0 ? 'parent' : 'child',
      type: seq % 3 === 0 ? 'tool_call' : 'text',
      final: seq % 4 === 0,
      ...(seq === 5 ? { diagnostics: 1, severity: 'warning' as const } : {}),
      ...(seq === 7 ? { diagnostics: 2, severity: 'error' as const } : {}),
    });
    timeline.applyBatch(rowsBatch(rows(0, 8, kind), [], 8));

    timeline.setFilter(filter('agent == "child"'));
    expect(visible(timeline)).toEqual([1, 3, 5, 7]);
    timeline.setFilter(filter('agent == "child" && type == "tool_call"'));
    expect(visible(timeline)).toEqual([3]);
    timeline.setFilter(filter('final'));
    expect(visible(timeline)).toEqual([0, 4]);
    timeline.setFilter(filter('!final && agent in ["parent"]'));
    expect(visible(timeline)).toEqual([2, 6]);

    timeline.setFilter(filter('agent == "child"'));
    timeline.applyBatch(rowsBatch(rows(8, 12, kind), [], 12));
    expect(visible(timeline)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(timeline.getSnapshot()).toMatchObject({ total: 12, visibleCount: 6, filterActive: true });
  });

  it('asks main again when a later batch changes a badge under a severity filter', async () => {
    const all = rows(0, 4, (seq) => (seq === 3 ? { diagnostics: 1, severity: 'error' as const } : {}));
    const { timeline, main, scheduler } = model(all);
    timeline.applyBatch(rowsBatch(all, [], 4));
    timeline.setFilter(filter('finding.severity >= "warning"'));
    await settle();
    expect(visible(timeline)).toEqual([3]);
    all[1] = row(1, { diagnostics: 1, severity: 'warning' });
    timeline.applyBatch(rowsBatch([], [all[1]], 4));
    scheduler.advance(SEARCH_REFRESH_MS);
    await settle();
    expect(visible(timeline)).toEqual([1, 3]);
    expect(main.searches.map((r) => r.expression)).toEqual([
      'finding.severity >= "warning"',
      'finding.severity >= "warning"',
    ]);
  });

  it('filters on agent names as shown, here, without asking main', () => {
    const { timeline, main } = model();
    timeline.applyBatch(
      rowsBatch(
        rows(0, 4, (seq) => ({ agent: seq < 2 ? 'uuid-parent' : 'uuid-child' })),
        [],
        4,
      ),
    );
    timeline.setAgentNames(
      new Map([
        ['uuid-parent', 'main'],
        ['uuid-child', 'sub 1'],
      ]),
    );
    timeline.setFilter(filter('agent == "sub 1"'));
    expect(visible(timeline)).toEqual([2, 3]);
    timeline.setFilter(filter('agent == "uuid-parent" || agent == "sub 1" && !final'));
    expect(visible(timeline)).toEqual([0, 1, 2, 3]);
    expect(main.searches).toEqual([]);
  });

  it('keeps the last valid filter while the expression does not parse, and says where it breaks', () => {
    const { timeline } = model();
    timeline.applyBatch(
      rowsBatch(
        rows(0, 6, (seq) => ({ final: seq % 2 === 0 })),
        [],
        6,
      ),
    );
    timeline.setFilter(filter('final'));
    timeline.setFilter(filter('final && typ == "x"'));
    expect(timeline.getSnapshot().filterError).toMatchObject({ at: 9, length: 3 });
    expect(timeline.getSnapshot().filterError?.message).toContain("did you mean 'type'");
    expect(visible(timeline)).toEqual([0, 2, 4]);
    timeline.setFilter(filter(''));
    expect(timeline.getSnapshot()).toMatchObject({ filterError: null, filterActive: false, visibleCount: 6 });
  });

  it('refreshes a filter main evaluates with the applied expression, not an unfinished edit', async () => {
    const all = rows(0, 3, (seq) => ({ preview: seq === 1 ? 'needle' : 'hay' }));
    const { timeline, main, scheduler } = model(all);
    timeline.applyBatch(rowsBatch(all.slice(0, 2), [], 2));
    timeline.setFilter(filter('delta contains "needle"'));
    await settle();
    timeline.setFilter(filter('delta contains "needle" &&'));
    all.push(row(3, { preview: 'needle again' }));
    timeline.applyBatch(rowsBatch(all.slice(2), [], 4));
    scheduler.advance(SEARCH_REFRESH_MS);
    await settle();
    expect(main.searches.map((r) => r.expression)).toEqual(['delta contains "needle"', 'delta contains "needle"']);
    expect(visible(timeline)).toEqual([1, 3]);
  });

  it('filters an agent it has not seen yet to nothing, then to its rows once they arrive', () => {
    const { timeline } = model();
    timeline.applyBatch(rowsBatch(rows(0, 2), [], 2));
    timeline.setFilter(filter('agent == "late"'));
    expect(visible(timeline)).toEqual([]);
    timeline.applyBatch(rowsBatch([row(2, { agent: 'late' })], [], 3));
    expect(visible(timeline)).toEqual([2]);
  });

  it('evaluates a filter on fields it does not keep in main (filterRows), again while rows keep arriving', async () => {
    const all = rows(0, 6, (seq) => ({ preview: seq === 2 || seq === 4 ? 'the Eiffel tower' : 'other' }));
    const { timeline, main, scheduler } = model(all);
    timeline.applyBatch(rowsBatch(all.slice(0, 5), [], 5));
    timeline.setFilter(filter('"eiffel"'));
    expect(timeline.getSnapshot().searching).toBe(true);
    await settle();
    expect(visible(timeline)).toEqual([2, 4]);
    expect(main.searches).toHaveLength(1);

    all.push(row(6, { preview: 'eiffel again' }));
    timeline.applyBatch(rowsBatch(all.slice(5, 7), [], 7));
    expect(visible(timeline)).toEqual([2, 4]);
    scheduler.advance(SEARCH_REFRESH_MS);
    await settle();
    expect(main.searches).toHaveLength(2);
    expect(visible(timeline)).toEqual([2, 4, 6]);
  });

  it('drops an answer from main that arrives after the filter changed', async () => {
    const all = rows(0, 4, (seq) => ({ preview: seq === 1 ? 'alpha' : 'beta' }));
    const resolvers: ((value: { seqs: number[]; truncated: boolean }) => void)[] = [];
    const scheduler = createManualScheduler();
    const timeline = new TimelineModel('s1', {
      service: {
        getRows: () => Promise.reject(new Error('unused')),
        filterRows: () => new Promise((resolve) => resolvers.push(resolve)),
      },
      scheduler,
      reportError: () => {},
    });
    timeline.applyBatch(rowsBatch(all, [], 4));
    timeline.setFilter(filter('"alpha"'));
    timeline.setFilter(filter('"beta"'));
    resolvers[1]!({ seqs: [0, 2, 3], truncated: false });
    await settle();
    resolvers[0]!({ seqs: [1], truncated: false });
    await settle();
    expect(visible(timeline)).toEqual([0, 2, 3]);
  });

  it('fetches rows it never received by page, once per page, when they come into view', async () => {
    const all = rows(0, PAGE_SIZE * 3);
    const { timeline, main } = model(all);
    // A window that attached late: the first batch it sees starts far into the stream.
    timeline.applyBatch(rowsBatch(all.slice(PAGE_SIZE * 2 + 10), [], all.length));
    expect(timeline.getRow(5)).toBeUndefined();
    timeline.ensurePositions(0, 20);
    timeline.ensurePositions(0, 20);
    expect(main.requests).toEqual([{ sessionId: 's1', start: 0, count: PAGE_SIZE }]);
    await settle();
    expect(timeline.getRow(5)?.preview).toBe('delta 5');
  });

  it('indexes every row of a batch from its columns, and loads by page the rows it did not carry in full', async () => {
    const all = rows(0, 1000, (seq) => ({ agent: seq % 2 === 0 ? 'parent' : 'child', final: seq % 100 === 99 }));
    const { timeline, main } = model(all);
    // Main sends the newest rows of a big batch in full, the rest as columns only.
    timeline.applyBatch({ ...rowsBatch(all), rows: all.slice(900) });
    expect(timeline.getSnapshot()).toMatchObject({ total: 1000, indexComplete: true });
    // The batch's one string table holds agents and types: each lands in its own list.
    expect(timeline.index.agents).toEqual(['parent', 'child']);
    expect(timeline.index.types).toEqual(['text']);
    timeline.setFilter(filter('agent == "child" && final'));
    expect(visible(timeline)).toEqual([99, 199, 299, 399, 499, 599, 699, 799, 899, 999]);
    expect(timeline.getRow(999)?.preview).toBe('delta 999');
    expect(timeline.getRow(99)).toBeUndefined();
    timeline.ensurePositions(0, 2);
    expect(main.requests).toEqual([{ sessionId: 's1', start: 0, count: PAGE_SIZE }]);
    await settle();
    expect(timeline.getRow(99)?.preview).toBe('delta 99');
    expect(main.searches).toEqual([]);
  });

  it('backfills the index with the rows it missed so filters and lanes see all of them', async () => {
    const all = rows(0, 30, (seq) => ({ agent: seq < 10 ? 'early' : 'late' }));
    const { timeline } = model(all);
    timeline.applyBatch(rowsBatch(all.slice(20), [], 30));
    expect(timeline.getSnapshot().indexComplete).toBe(false);
    timeline.setFilter(filter('agent == "early"'));
    await settle();
    expect(timeline.getSnapshot().indexComplete).toBe(true);
    expect(visible(timeline)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('does not fetch rows that batches are still bringing', async () => {
    const all = rows(0, 50);
    const { timeline, main } = model(all);
    timeline.applyBatch(rowsBatch(all.slice(0, 10), [], 10));
    // Main already counts 50 (e.g. a file still loading): the rest arrives in batches.
    timeline.growTo(50);
    timeline.backfill();
    await settle();
    expect(main.requests).toEqual([]);
  });

  it('keeps a row from a batch when an older page answer for the same rows arrives later', async () => {
    const stale = rows(0, 4);
    const { timeline } = model(stale);
    timeline.growTo(4);
    timeline.ensurePositions(0, 4);
    timeline.applyBatch(rowsBatch([], [row(2, { diagnostics: 1, severity: 'error' })], 4));
    await settle();
    expect(timeline.getRow(2)?.severity).toBe('error');
    expect(timeline.getRow(1)?.preview).toBe('delta 1');
  });

  it('maps positions to seqs and back through a filter', () => {
    const { timeline } = model();
    timeline.applyBatch(
      rowsBatch(
        rows(0, 10, (seq) => ({ final: seq % 3 === 0 })),
        [],
        10,
      ),
    );
    timeline.setFilter(filter('final'));
    expect(visible(timeline)).toEqual([0, 3, 6, 9]);
    expect(timeline.positionOf(6)).toBe(2);
    expect(timeline.positionOf(5)).toBe(-1);
    expect(timeline.seqAt(4)).toBeUndefined();
  });

  it('reports a failed page load instead of swallowing it', async () => {
    const scheduler = createManualScheduler();
    const errors: string[] = [];
    const timeline = new TimelineModel('s1', {
      service: {
        getRows: () => Promise.reject(new Error('session closed')),
        filterRows: () => Promise.reject(new Error('x')),
      },
      scheduler,
      reportError: (context, error) => errors.push(`${context}: ${(error as Error).message}`),
    });
    timeline.growTo(10);
    timeline.ensurePositions(0, 10);
    await settle();
    expect(errors).toEqual(['Load rows: session closed']);
  });
});
