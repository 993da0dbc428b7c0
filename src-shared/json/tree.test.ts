import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { nestedArrayText, nestedObjectText } from '../testing/deep-json';
import { canonicalJson, describeValue } from './values';
import { jsonDepth, jsonEqual, limitJsonDepth, mapJson, stringifyJson, stringifyJsonCollapsed } from './tree';
import { pythonRepr } from '../diff/python-repr';
import { json } from '../contract/schema';

/** Random JSON-like values, including what JSON.stringify treats specially (undefined, NaN, -0, "__proto__"). */
function randomValue(random: () => number, depth: number): unknown {
  const pick = Math.floor(random() * (depth > 4 ? 7 : 10));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return [0, -0, 1.5, -1e21, 1e-7, Number.NaN, Number.POSITIVE_INFINITY, 42][Math.floor(random() * 8)];
    case 3:
      return ['', 'a"b\\c', '\u0000\u001f\u2028', '\ud800 lone', 'é😀', '__proto__'][Math.floor(random() * 6)];
    case 4:
      return undefined;
    case 5:
      return 'x'.repeat(Math.floor(random() * 5));
    case 6:
      return Math.floor(random() * 1000);
    case 7:
    case 8:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      const keys = ['b', 'a', '10', '2', '__proto__', 'é', ''];
      for (let i = Math.floor(random() * 4); i > 0; i--) {
        const key = keys[Math.floor(random() * keys.length)] as string;
        Object.defineProperty(out, key, {
          value: randomValue(random, depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
  }
}

/** The explicit-stack writer, reached the way a deep value reaches it: sorted keys skip the native path. */
const sortedNative = (value: unknown, indent: number): string | undefined => {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(v).sort())
      Object.defineProperty(out, key, {
        value: sort((v as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return JSON.stringify(sort(value), null, indent);
};

describe('walking deeply nested JSON with an explicit stack', () => {
  it.each([0, 2])('writes exactly what JSON.stringify writes (indent %i, 2,000 seeded random values)', (indent) => {
    const random = seededRandom(7 + indent);
    for (let i = 0; i < 2000; i++) {
      const value = randomValue(random, 0);
      expect(stringifyJson(value, { indent, sortKeys: true })).toBe(sortedNative(value, indent));
      expect(stringifyJson(value, { indent })).toBe(JSON.stringify(value, null, indent));
    }
  });

  it('serialises, compares, copies and measures 100,000 levels without a stack overflow', () => {
    const depth = 100_000;
    const text = nestedArrayText(depth);
    const value = JSON.parse(text) as unknown;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(stringifyJson(value)).toBe(text);
    expect(jsonDepth(value)).toBe(depth);
    expect(jsonEqual(value, JSON.parse(text))).toBe(true);
    expect(jsonEqual(value, JSON.parse(nestedArrayText(depth - 1)))).toBe(false);
    expect(stringifyJson(mapJson(value, {}))).toBe(text);
    const objects = JSON.parse(nestedObjectText(depth)) as unknown;
    // Pretty text of n levels is quadratic in n by nature: measured at a depth that fits a string.
    expect(canonicalJson(JSON.parse(nestedObjectText(3000)))).toMatch(/^\{\n {2}"a": \{\n {4}"a": /);
    expect(describeValue(objects)).toMatch(/^object \{"a":\{"a":/);
    expect(pythonRepr(objects).startsWith("{'a': {'a': ")).toBe(true);
  });

  it('pretty-prints 3,000 levels as JSON.stringify would have, had it not overflowed', () => {
    const value = JSON.parse(nestedArrayText(3000)) as unknown;
    const pretty = stringifyJson(value, { indent: 2 }) ?? '';
    const lines = pretty.split('\n');
    expect(lines).toHaveLength(6001);
    expect(lines[3000]).toBe(`${' '.repeat(6000)}1`);
    expect(lines.at(-1)).toBe(']');
  });

  it('limits nesting for a boundary by turning the deepest containers into their JSON text, losing nothing', () => {
    const value = JSON.parse(`{"x":${nestedArrayText(40)},"y":[1,{"z":2}]}`) as Record<string, unknown>;
    const limited = limitJsonDepth(value, 32) as Record<string, unknown>;
    expect(jsonDepth(limited)).toBeLessThanOrEqual(32);
    expect(limited['y']).toEqual(value['y']);
    // The container that starts at depth 32 is its exact JSON text.
    let inner: unknown = limited['x'];
    for (let i = 1; i < 32; i++) inner = (inner as unknown[])[0];
    expect(inner).toBe(nestedArrayText(9));
    const shallow = { a: [1, 2] };
    expect(limitJsonDepth(shallow, 32)).toBe(shallow);
    expect(() => json().parse(limited)).not.toThrow();
  });

  it('lets the contract refuse (not crash on) a value nested deeper than it carries', () => {
    const deep = JSON.parse(nestedArrayText(50_000)) as unknown;
    expect(() => json().parse(deep, 'arg')).toThrow(/arg(\[0\]){64}: nests deeper than 64 levels/);
  });

  it('copies a "__proto__" key as a plain member and refuses cycles instead of looping', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true}}') as unknown;
    const copy = mapJson(value, {}) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(() => stringifyJson(cycle, { sortKeys: true })).toThrow(TypeError);
    expect(() => mapJson(cycle, {})).toThrow(TypeError);
  });
});

describe('pretty JSON collapsed beyond a depth', () => {
  it('writes a container nested deeper than the limit as one string that counts what it holds', () => {
    const value = JSON.parse(`{"ok":[1,{"b":2}],"deep":${nestedArrayText(5000)}}`) as unknown;
    const text = stringifyJsonCollapsed(value, 3) ?? '';
    expect(text.split('\n').length).toBeLessThan(20);
    expect(JSON.parse(text)).toEqual({ ok: [1, { b: 2 }], deep: [['[… 1 item]']] });
    expect(stringifyJsonCollapsed(JSON.parse('[[[1,2],[3]]]'), 1)).toBe('[\n  "[… 2 items]"\n]');
  });

  it('writes a value within the limit exactly as JSON.stringify does', () => {
    const value = JSON.parse(nestedObjectText(3)) as unknown;
    expect(stringifyJsonCollapsed(value, 3)).toBe(JSON.stringify(value, null, 2));
    expect(stringifyJsonCollapsed(JSON.parse(nestedObjectText(5)), 4)).toContain('"{… 1 key}"');
  });
});
