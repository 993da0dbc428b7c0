import { describe, expect, it } from 'vitest';
import { applyPatch } from './json-patch';

const apply = (document: unknown, patch: unknown) => applyPatch(document, patch);

describe('JSON Patch (RFC 6902) as STATE_DELTA applies it', () => {
  it('add, remove, replace, move, copy and test, in order', () => {
    const document = { a: { b: 1, c: [1, 2] }, d: 'x' };
    const result = apply(document, [
      { op: 'add', path: '/a/c/1', value: 9 },
      { op: 'add', path: '/a/c/-', value: 3 },
      { op: 'replace', path: '/a/b', value: 2 },
      { op: 'remove', path: '/d' },
      { op: 'copy', from: '/a/b', path: '/e' },
      { op: 'move', from: '/a/c', path: '/f' },
      { op: 'test', path: '/f', value: [1, 9, 2, 3] },
    ]);
    expect(result).toEqual({ ok: true, value: { a: { b: 2 }, e: 2, f: [1, 9, 2, 3] }, dropped: [] });
    // The document given is never changed: a failed patch has nothing to undo.
    expect(document).toEqual({ a: { b: 1, c: [1, 2] }, d: 'x' });
  });

  it('replace keeps a member where it is; the whole document can be replaced or added', () => {
    const result = apply({ a: 1, b: 2, c: 3 }, [{ op: 'replace', path: '/b', value: 20 }]);
    expect(JSON.stringify(result.ok && result.value)).toBe('{"a":1,"b":20,"c":3}');
    expect(apply({ a: 1 }, [{ op: 'replace', path: '', value: [1] }])).toMatchObject({ ok: true, value: [1] });
  });

  it('pointers unescape ~1 and ~0, and a "__proto__" member stays a plain member', () => {
    const result = apply({}, [
      { op: 'add', path: '/a~1b', value: 1 },
      { op: 'add', path: '/m~0n', value: 2 },
      { op: 'add', path: '/__proto__', value: { polluted: true } },
    ]);
    expect(result.ok).toBe(true);
    const value = (result.ok ? result.value : {}) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['a/b', 'm~n', '__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('is atomic: when an operation fails, none applies, and the failure names it', () => {
    expect(
      apply({ plan: { status: 'open' } }, [
        { op: 'replace', path: '/plan/status', value: 'closed' },
        { op: 'replace', path: '/absent/deeper', value: 1 },
      ]),
    ).toEqual({ ok: false, error: 'operation 1: path /absent/deeper does not exist (no absent)', operation: 1 });
  });

  it.each([
    ['a failing test', [{ op: 'test', path: '/a', value: 2 }], 'test at /a failed'],
    ['a missing member', [{ op: 'remove', path: '/b' }], 'path /b does not exist'],
    ['an index past the end', [{ op: 'add', path: '/list/5', value: 1 }], 'out of the array'],
    ['a path through a number', [{ op: 'add', path: '/a/b', value: 1 }], 'is a number'],
    ['a move into its own child', [{ op: 'move', from: '/list', path: '/list/0' }], 'into its own child'],
    ['a path without its slash', [{ op: 'add', path: 'a', value: 1 }], 'does not start with "/"'],
    ['an operation without value', [{ op: 'add', path: '/c' }], 'has no "value"'],
    ['an operation that is no object', [5], 'not an operation object'],
    ['a patch that is no array', { op: 'add' }, 'not an array'],
  ])('fails on %s', (_name, patch, error) => {
    const result = apply({ a: 1, list: [1] }, patch);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toContain(error);
  });

  it('drops an operation RFC 6902 does not define, and applies the rest', () => {
    expect(
      apply({ count: 1 }, [
        { op: 'increment', path: '/count', value: 1 },
        { op: 'replace', path: '/count', value: 5 },
      ]),
    ).toEqual({ ok: true, value: { count: 5 }, dropped: ['operation 0 (increment)'] });
  });

  it('walks a pointer and compares values as deep as the input nests, without recursion', () => {
    const depth = 20_000;
    let deep: unknown = 'leaf';
    for (let i = 0; i < depth; i++) deep = { a: deep };
    const pointer = '/a'.repeat(depth);
    const result = apply({ deep }, [
      { op: 'test', path: '/deep', value: deep },
      { op: 'replace', path: `/deep${pointer}`, value: 'changed' },
    ]);
    expect(result.ok).toBe(true);
    let node = (result.ok ? result.value : {}) as Record<string, unknown>;
    node = node['deep'] as Record<string, unknown>;
    for (let i = 0; i < depth - 1; i++) node = node['a'] as Record<string, unknown>;
    expect(node['a']).toBe('changed');
  });
});
