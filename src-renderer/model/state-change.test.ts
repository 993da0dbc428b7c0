import { describe, expect, test } from 'vitest';
import { MAX_OPERATIONS, stateChangeOf } from './state-change';

describe('stateChangeOf: what made a state block, one line an operation', () => {
  test('a STATE_DELTA: each JSON Patch operation with its path, its source and its value', () => {
    const patch = [
      { op: 'test', path: '/status', value: 'planning' },
      { op: 'replace', path: '/plan/steps/0/done', value: true },
      { op: 'move', from: '/a', path: '/b' },
      { op: 'add', path: '/plan/steps/-', value: { label: 'Book the hotel', done: false } },
      { op: 'remove', path: '/plan/steps/1' },
      { op: 'replace', path: '', value: {} },
    ];
    expect(stateChangeOf({ event: 'STATE_DELTA', patch })).toEqual({
      event: 'STATE_DELTA',
      operations: [
        'test /status "planning"',
        'replace /plan/steps/0/done true',
        'move /b from /a',
        'add /plan/steps/- {"label":"Book the hotel","done":false}',
        'remove /plan/steps/1',
        'replace (the whole state) {}',
      ],
      more: 0,
    });
  });

  test('a snapshot has no operations; a delta that did not apply says why', () => {
    expect(stateChangeOf({ event: 'STATE_SNAPSHOT' })).toEqual({ event: 'STATE_SNAPSHOT', operations: [], more: 0 });
    expect(
      stateChangeOf({
        event: 'STATE_DELTA',
        patch: [{ op: 'remove', path: '/missing' }],
        applied: false,
        error: 'operation 0 (remove /missing): no such member',
      }),
    ).toEqual({
      event: 'STATE_DELTA',
      operations: ['remove /missing'],
      more: 0,
      failed: 'operation 0 (remove /missing): no such member',
    });
  });

  test('a patch of thousands lists its first operations and counts the rest', () => {
    const patch = Array.from({ length: 5_000 }, (_, i) => ({ op: 'add', path: `/items/${i}`, value: i }));
    const change = stateChangeOf({ event: 'STATE_DELTA', patch });
    expect(change?.operations).toHaveLength(MAX_OPERATIONS);
    expect(change?.operations.at(-1)).toBe(`add /items/${MAX_OPERATIONS - 1} ${MAX_OPERATIONS - 1}`);
    expect(change?.more).toBe(5_000 - MAX_OPERATIONS);
  });

  test('what a stream sends that is no operation is shown as it is, cut, never dropped', () => {
    const long = 'x'.repeat(500);
    const change = stateChangeOf({
      event: 'STATE_DELTA',
      patch: [42, null, ['a'], { path: 7 }, { op: 'add', value: long }],
    });
    expect(change?.operations).toEqual([
      '(not an operation: 42)',
      '(not an operation: null)',
      '(not an operation: ["a"])',
      '(no op) 7',
      `add (no path) "${'x'.repeat(118)}…`,
    ]);
    expect(stateChangeOf({ event: 'STATE_DELTA', patch: { op: 'add' } })?.operations).toEqual(['{"op":"add"}']);
  });

  test('a deeply nested value is written without recursion, and extras with no event are no state change', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const [line] = stateChangeOf({ event: 'STATE_DELTA', patch: [{ op: 'add', path: '/d', value: deep }] })!.operations;
    expect(line).toMatch(/^add \/d \[\[\[\[/);
    expect(line!.length).toBeLessThanOrEqual('add /d '.length + 120);
    expect(stateChangeOf({ patch: [] })).toBeNull();
    expect(stateChangeOf({ event: 7 })).toBeNull();
  });
});
