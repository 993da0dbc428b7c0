import { describe, expect, it, test } from 'vitest';
import { parseJsonPath, PartialArguments } from './partial-args';

describe('JSON paths of streamed arguments', () => {
  test.each([
    ['$.a', ['a']],
    ['$.recipe.steps[3]', ['recipe', 'steps', 3]],
    ["$['odd key'].x", ['odd key', 'x']],
    ['$["q"][0][1]', ['q', 0, 1]],
    ['$', []],
  ])('%s → %j', (path, steps) => {
    expect(parseJsonPath(path)).toEqual(steps);
  });

  test.each(['a.b', '$..a', '$.a[*]', '$.a[-1]', '$.a[01]', '$.a[', '$.', '$.a[1:2]', '$.a[9999999999]'])(
    '%s is none',
    (path) => {
      expect(parseJsonPath(path)).toBeUndefined();
    },
  );
});

describe('partial arguments', () => {
  it('builds nested objects and arrays, joins a string over entries that say willContinue', () => {
    const args = new PartialArguments();
    for (const arg of [
      { jsonPath: '$.recipe.name', stringValue: 'Lasa', willContinue: true },
      { jsonPath: '$.recipe.name', stringValue: 'gna', willContinue: true },
      { jsonPath: '$.recipe.name', stringValue: '' },
      { jsonPath: '$.recipe.steps[0]', stringValue: 'Boil.' },
      { jsonPath: '$.recipe.steps[1]', stringValue: 'Bake.' },
      { jsonPath: '$.recipe.serves', numberValue: 4 },
      { jsonPath: '$.recipe.vegan', boolValue: false },
      { jsonPath: '$.recipe.note', nullValue: 'NULL_VALUE' },
    ])
      expect(args.apply(arg)).toBeUndefined();
    expect(args.root).toEqual({
      recipe: { name: 'Lasagna', steps: ['Boil.', 'Bake.'], serves: 4, vegan: false, note: null },
    });
    expect(args.count).toBe(8);
  });

  it('a string without willContinue before it replaces the value, it does not join', () => {
    const args = new PartialArguments();
    args.apply({ jsonPath: '$.a', stringValue: 'x' });
    args.apply({ jsonPath: '$.a', stringValue: 'y' });
    expect(args.root).toEqual({ a: 'y' });
  });

  test.each([
    ['no object', 'x', /not an object/],
    ['no path', { stringValue: 'x' }, /without a string jsonPath/],
    ['a path naming nothing', { jsonPath: '$', stringValue: 'x' }, /names no argument/],
    ['no value', { jsonPath: '$.a' }, /carries no value/],
    ['an index past the end', { jsonPath: '$.list[5]', stringValue: 'x' }, /skips past/],
    ['a huge index', { jsonPath: '$.list[99999999]', numberValue: 1 }, /skips past/],
  ])('%s is a problem, and sets no value', (_name, arg, problem) => {
    const args = new PartialArguments();
    expect(args.apply(arg)).toMatch(problem);
    expect(args.count).toBe(0);
    expect(JSON.stringify(args.root)).not.toContain('"x"');
  });

  it('a path through a value of another shape is a problem', () => {
    const args = new PartialArguments();
    args.apply({ jsonPath: '$.a', stringValue: 'x' });
    expect(args.apply({ jsonPath: '$.a.b', stringValue: 'y' })).toMatch(/goes into a string/);
    args.apply({ jsonPath: '$.list[0]', stringValue: 'x' });
    expect(args.apply({ jsonPath: '$.list.name', stringValue: 'y' })).toMatch(/indexes an array by name/);
  });

  it('a __proto__ key from the wire stays a plain key', () => {
    const args = new PartialArguments();
    expect(args.apply({ jsonPath: '$.__proto__.polluted', boolValue: true })).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.keys(args.root)).toEqual(['__proto__']);
  });
});
