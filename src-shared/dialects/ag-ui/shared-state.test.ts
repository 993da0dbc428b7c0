import { describe, expect, it } from 'vitest';
import { agUi, decodeAgUi, inRun, RUN, rulesOf } from './test-events';

const states = (events: string[]) =>
  decodeAgUi(events)
    .blocks.filter((b) => b.kind === 'state')
    .map((b) => b.parsed);

const snapshot = (value: unknown) => agUi('STATE_SNAPSHOT', { snapshot: value });
const delta = (...operations: unknown[]) => agUi('STATE_DELTA', { delta: operations });

describe('the shared state, after every snapshot and delta', () => {
  it('a snapshot replaces the state; a delta amends it; each gives the whole state as a block', () => {
    const result = decodeAgUi(
      inRun(
        snapshot({ items: [] }),
        delta({ op: 'add', path: '/items/-', value: 'a' }),
        snapshot([1]),
        delta({ op: 'add', path: '/1', value: 2 }),
      ),
    );
    expect(result.blocks.filter((b) => b.kind === 'state').map((b) => b.parsed)).toEqual([
      { items: [] },
      { items: ['a'] },
      [1],
      [1, 2],
    ]);
    expect(rulesOf(result)).toEqual([]);
  });

  it('the state outlives its run: the next run of the stream amends it', () => {
    const events = [
      ...inRun(snapshot({ n: 1 })),
      ...inRun(delta({ op: 'replace', path: '/n', value: 2 })).map((e) => e.replace('run-1', 'run-2')),
    ];
    expect(states(events)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('a RUN_STARTED echoing its input starts the run from the input’s state', () => {
    const events = [
      agUi('RUN_STARTED', { ...RUN, input: { ...RUN, state: { n: 7 }, messages: [] } }),
      delta({ op: 'replace', path: '/n', value: 8 }),
      agUi('RUN_FINISHED', RUN),
    ];
    const result = decodeAgUi(events);
    expect(states(events)).toEqual([{ n: 8 }]);
    // Must not: the baseline is known, so the delta is not one before any snapshot.
    expect(rulesOf(result)).toEqual([]);
  });
});

describe('ag-ui.state-delta-failed', () => {
  it('fires for a test that fails and for a path that does not exist; the state stays as it was', () => {
    const result = decodeAgUi(
      inRun(
        snapshot({ status: 'open' }),
        delta({ op: 'test', path: '/status', value: 'closed' }, { op: 'replace', path: '/status', value: 'done' }),
        delta({ op: 'remove', path: '/missing' }),
      ),
    );
    expect(rulesOf(result)).toEqual(['ag-ui.state-delta-failed', 'ag-ui.state-delta-failed']);
    expect(result.diagnostics[0]?.message).toContain('operation 0: test at /status failed');
    expect(result.diagnostics[0]?.at.frame).toBe(2);
    const blocks = result.blocks.filter((b) => b.kind === 'state');
    expect(blocks.map((b) => b.parsed)).toEqual([{ status: 'open' }, { status: 'open' }, { status: 'open' }]);
  });

  it('does not fire for a delta that applies, nor for an operation RFC 6902 does not define (dropped, reported as unknown)', () => {
    const result = decodeAgUi(
      inRun(
        snapshot({ count: 1 }),
        delta({ op: 'test', path: '/count', value: 1 }, { op: 'replace', path: '/count', value: 2 }),
        delta({ op: 'increment', path: '/count' }, { op: 'replace', path: '/count', value: 5 }),
      ),
    );
    expect(rulesOf(result)).toEqual(['provider.unknown-event']);
    expect(result.blocks.filter((b) => b.kind === 'state').at(-1)?.parsed).toEqual({ count: 5 });
  });
});

describe('ag-ui.delta-before-snapshot', () => {
  it('fires once at the first delta no snapshot came before; the state shown starts from {}', () => {
    const result = decodeAgUi(
      inRun(delta({ op: 'add', path: '/draft', value: 1 }), delta({ op: 'add', path: '/more', value: 2 })),
    );
    expect(rulesOf(result)).toEqual(['ag-ui.delta-before-snapshot']);
    expect(result.diagnostics[0]?.severity).toBe('info');
    expect(result.blocks.filter((b) => b.kind === 'state').map((b) => b.parsed)).toEqual([
      { draft: 1 },
      { draft: 1, more: 2 },
    ]);
  });

  it('says a delta that does not apply to the assumed {} under its own rule, not as a failed delta', () => {
    const result = decodeAgUi(inRun(delta({ op: 'replace', path: '/count', value: 2 })));
    expect(rulesOf(result)).toEqual(['ag-ui.delta-before-snapshot', 'ag-ui.delta-before-snapshot']);
    expect(result.diagnostics[1]?.message).toContain('does not apply to the state assumed from {}');
  });

  it('does not fire after a snapshot', () => {
    expect(rulesOf(decodeAgUi(inRun(snapshot({}), delta({ op: 'add', path: '/a', value: 1 }))))).toEqual([]);
  });
});

describe('a STATE_SNAPSHOT without its snapshot', () => {
  it('is reported and leaves the state as it was', () => {
    const result = decodeAgUi(inRun(snapshot({ a: 1 }), agUi('STATE_SNAPSHOT')));
    expect(rulesOf(result)).toEqual(['provider.invalid-event']);
    expect(result.blocks.filter((b) => b.kind === 'state').map((b) => b.parsed)).toEqual([{ a: 1 }]);
  });
});
