/**
 * A tiny runtime schema library for the main ↔ renderer contract. Each schema both checks a
 * value that crossed a process boundary and gives its static type (`Infer<typeof S>`), so a
 * payload's shape is written once. Object schemas are closed: unknown keys are rejected and
 * the parsed result is a fresh plain object, so nothing but declared plain data gets through.
 */

export class ContractError extends Error {
  override readonly name = 'ContractError';
  constructor(
    /** Where in the value the check failed, e.g. `arg.headers[2][0]`. */
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path}: ${problem}`);
  }
}

export interface Schema<T> {
  /** Returns the checked value (objects are rebuilt from their declared keys) or throws ContractError. */
  parse(value: unknown, path?: string): T;
  /** Human-readable type for error messages and docs. */
  readonly describe: string;
  /** Set on schemas made by `optional()`: the key may be absent from an object. */
  readonly optional?: true;
  /** Set on schemas made by `number()`: what `array()` checks its items against in one loop. */
  readonly range?: Required<NumberOptions>;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type ObjectOf<S extends Shape> = Simplify<
  { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }
>;

function fail(path: string, expected: string, value: unknown): never {
  throw new ContractError(path, `expected ${expected}, got ${describeValue(value)}`);
}

/**
 * Children are checked with their parent's path and name their own step only when they fail
 * (`within`): building `value.rows[12].seq` for every valid value would cost a string per
 * field of every batch, the bulk of checking a large one.
 */
function within(error: unknown, path: string, step: string): never {
  if (error instanceof ContractError && error.path.startsWith(path))
    throw new ContractError(path + step + error.path.slice(path.length), error.problem);
  throw error;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `${typeof value} ${value}`;
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export interface StringOptions {
  /** Maximum length in UTF-16 code units. */
  max?: number;
  nonEmpty?: boolean;
  pattern?: RegExp;
}

export function string(options: StringOptions = {}): Schema<string> {
  const { max = Number.POSITIVE_INFINITY, nonEmpty = false, pattern } = options;
  return {
    describe: 'string',
    parse(value, path = 'value') {
      if (typeof value !== 'string') fail(path, 'a string', value);
      if (nonEmpty && value.length === 0) throw new ContractError(path, 'must not be empty');
      if (value.length > max) throw new ContractError(path, `is ${value.length} characters long, the limit is ${max}`);
      if (pattern && !pattern.test(value)) throw new ContractError(path, `does not match ${String(pattern)}`);
      return value;
    },
  };
}

export interface NumberOptions {
  integer?: boolean;
  min?: number;
  max?: number;
}

export function number(options: NumberOptions = {}): Schema<number> {
  const { integer = false, min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY } = options;
  return {
    describe: integer ? 'integer' : 'number',
    range: { integer, min, max },
    parse(value, path = 'value') {
      if (typeof value !== 'number' || !Number.isFinite(value)) fail(path, 'a finite number', value);
      if (integer && !Number.isInteger(value)) fail(path, 'an integer', value);
      if (value < min || value > max) throw new ContractError(path, `${value} is outside ${min}..${max}`);
      return value;
    },
  };
}

/** A non-negative integer below 2^53: sequence numbers, offsets, counts. */
export const index = (): Schema<number> => number({ integer: true, min: 0, max: Number.MAX_SAFE_INTEGER });

export function boolean(): Schema<boolean> {
  return {
    describe: 'boolean',
    parse(value, path = 'value') {
      if (typeof value !== 'boolean') fail(path, 'a boolean', value);
      return value;
    },
  };
}

export function literal<const T extends readonly (string | number | boolean)[]>(...values: T): Schema<T[number]> {
  const describe = values.map((v) => JSON.stringify(v)).join(' | ');
  return {
    describe,
    parse(value, path = 'value') {
      if (!values.includes(value as T[number])) fail(path, `one of ${describe}`, value);
      return value as T[number];
    },
  };
}

/** No value: commands without an argument or without a result (accepts undefined and null). */
export function none(): Schema<void> {
  return {
    describe: 'nothing',
    parse(value, path = 'value') {
      if (value !== undefined && value !== null) fail(path, 'no value', value);
      return undefined;
    },
  };
}

export function optional<T>(schema: Schema<T>): Schema<T | undefined> & { optional: true } {
  return {
    describe: `${schema.describe}?`,
    optional: true,
    parse(value, path = 'value') {
      return value === undefined ? undefined : schema.parse(value, path);
    },
  };
}

export function nullable<T>(schema: Schema<T>): Schema<T | null> {
  return {
    describe: `${schema.describe} | null`,
    parse(value, path = 'value') {
      return value === null ? null : schema.parse(value, path);
    },
  };
}

export function array<T>(item: Schema<T>, options: { max?: number } = {}): Schema<T[]> {
  const max = options.max ?? Number.POSITIVE_INFINITY;
  return {
    describe: `${item.describe}[]`,
    parse(value, path = 'value') {
      if (!Array.isArray(value)) fail(path, 'an array', value);
      if (value.length > max) throw new ContractError(path, `has ${value.length} items, the limit is ${max}`);
      if (item.range) return checkedNumbers(value, item.range, item, path) as T[];
      const out: T[] = new Array<T>(value.length);
      for (let i = 0; i < value.length; i++) {
        try {
          out[i] = item.parse(value[i], path);
        } catch (error) {
          within(error, path, `[${i}]`);
        }
      }
      return out;
    },
  };
}

/**
 * A copy of an array of numbers, each checked in this loop rather than by a call to its
 * schema: a batch's row columns hold a few hundred thousand numbers, checked on every process
 * they cross. The item's own `parse` runs only to report the first bad one.
 */
function checkedNumbers(
  value: unknown[],
  { integer, min, max }: Required<NumberOptions>,
  item: Schema<unknown>,
  path: string,
): number[] {
  const out = value.slice();
  for (let i = 0; i < out.length; i++) {
    const n = out[i];
    if (typeof n === 'number' && n >= min && n <= max && (integer ? Number.isInteger(n) : Number.isFinite(n))) continue;
    try {
      item.parse(n, path);
    } catch (error) {
      within(error, path, `[${i}]`);
    }
  }
  return out as number[];
}

export function tuple<const S extends readonly Schema<unknown>[]>(
  ...items: S
): Schema<{ -readonly [K in keyof S]: Infer<S[K]> }> {
  return {
    describe: `[${items.map((i) => i.describe).join(', ')}]`,
    parse(value, path = 'value') {
      if (!Array.isArray(value) || value.length !== items.length) fail(path, `a ${items.length}-tuple`, value);
      return items.map((item, i) => {
        try {
          return item.parse(value[i], path);
        } catch (error) {
          return within(error, path, `[${i}]`);
        }
      }) as { -readonly [K in keyof S]: Infer<S[K]> };
    },
  };
}

export function object<S extends Shape>(shape: S): Schema<ObjectOf<S>> & { readonly shape: S } {
  const keys = Object.keys(shape);
  return {
    describe: `{ ${keys.join(', ')} }`,
    shape,
    parse(value, path = 'value') {
      if (!isRecord(value)) fail(path, 'an object', value);
      for (const key of Object.keys(value)) {
        if (!Object.hasOwn(shape, key)) throw new ContractError(`${path}.${key}`, 'is not a known field');
      }
      const out: Record<string, unknown> = {};
      for (const key of keys) {
        let parsed: unknown;
        try {
          parsed = (shape[key] as Schema<unknown>).parse(value[key], path);
        } catch (error) {
          within(error, path, `.${key}`);
        }
        if (parsed !== undefined) out[key] = parsed;
      }
      return out as ObjectOf<S>;
    },
  };
}

/** A map with string keys (header tables are arrays of pairs instead, to keep order and duplicates). */
export function record<T>(item: Schema<T>, options: { maxKeys?: number } = {}): Schema<Record<string, T>> {
  const maxKeys = options.maxKeys ?? Number.POSITIVE_INFINITY;
  return {
    describe: `Record<string, ${item.describe}>`,
    parse(value, path = 'value') {
      if (!isRecord(value)) fail(path, 'an object', value);
      const keys = Object.keys(value);
      if (keys.length > maxKeys) throw new ContractError(path, `has ${keys.length} keys, the limit is ${maxKeys}`);
      const out: Record<string, T> = {};
      for (const key of keys) {
        if (key === '__proto__') throw new ContractError(path, 'must not have a __proto__ key');
        try {
          out[key] = item.parse(value[key], path);
        } catch (error) {
          within(error, path, `.${key}`);
        }
      }
      return out;
    },
  };
}

type VariantMap = Record<string, Schema<object>>;
type VariantOf<D extends string, M extends VariantMap> = {
  [K in keyof M]: Simplify<{ [P in D]: K } & Infer<M[K]>>;
}[keyof M];

/**
 * A discriminated union: `variant('kind', { a: object({...}), b: object({...}) })` accepts
 * `{kind: 'a', ...}` or `{kind: 'b', ...}`. The discriminant is not part of the member shapes.
 */
export function variant<const D extends string, M extends VariantMap>(
  discriminant: D,
  members: M,
): Schema<VariantOf<D, M>> {
  const names = Object.keys(members);
  return {
    describe: names.map((n) => `{ ${discriminant}: ${JSON.stringify(n)} … }`).join(' | '),
    parse(value, path = 'value') {
      if (!isRecord(value)) fail(path, 'an object', value);
      const tag = value[discriminant];
      if (typeof tag !== 'string' || !Object.hasOwn(members, tag)) {
        fail(`${path}.${discriminant}`, `one of ${names.map((n) => JSON.stringify(n)).join(', ')}`, tag);
      }
      const { [discriminant]: _tag, ...rest } = value;
      const parsed = (members[tag] as Schema<object>).parse(rest, path);
      return { [discriminant]: tag, ...parsed } as VariantOf<D, M>;
    },
  };
}

/** `schema`, then a check across its fields (lengths that must agree, indexes in range); null: fine. */
export function refine<T>(schema: Schema<T>, check: (value: T) => string | null): Schema<T> {
  return {
    describe: schema.describe,
    parse(value, path = 'value') {
      const parsed = schema.parse(value, path);
      const problem = check(parsed);
      if (problem !== null) throw new ContractError(path, problem);
      return parsed;
    },
  };
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * Any plain JSON data (numbers finite, objects plain, no cycles), for payloads whose inner
 * shape belongs to another layer (envelope extras, parsed tool input, chunk statistics).
 * The static type is the caller's; the check is that the value survives structured cloning
 * and JSON unchanged.
 */
export function json<T = JsonValue>(options: { maxDepth?: number } = {}): Schema<T> {
  const maxDepth = options.maxDepth ?? 64;
  /**
   * Checked with an explicit stack (parsed JSON from a stream can nest thousands of levels).
   * Each entry links to its parent and names its path only when it fails.
   */
  interface Entry {
    value: unknown;
    depth: number;
    parent: Entry | null;
    step: string | number;
  }
  const pathOf = (path: string, entry: Entry): string => {
    const steps: string[] = [];
    for (let e: Entry | null = entry; e?.parent; e = e.parent)
      steps.push(typeof e.step === 'number' ? `[${e.step}]` : `.${e.step}`);
    return path + steps.reverse().join('');
  };
  const check = (root: unknown, path: string): void => {
    const stack: Entry[] = [{ value: root, depth: 0, parent: null, step: '' }];
    while (stack.length > 0) {
      const entry = stack.pop() as Entry;
      const { value, depth } = entry;
      if (value === null || typeof value === 'string' || typeof value === 'boolean') continue;
      if (typeof value === 'number') {
        if (!Number.isFinite(value))
          throw new ContractError(pathOf(path, entry), `is ${value}, which JSON cannot carry`);
        continue;
      }
      if (depth >= maxDepth) throw new ContractError(pathOf(path, entry), `nests deeper than ${maxDepth} levels`);
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--)
          stack.push({ value: value[i], depth: depth + 1, parent: entry, step: i });
        continue;
      }
      if (!isRecord(value)) fail(pathOf(path, entry), 'plain JSON data', value);
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (value[key] !== undefined) stack.push({ value: value[key], depth: depth + 1, parent: entry, step: key });
      }
    }
  };
  return {
    describe: 'JSON',
    parse(value, path = 'value') {
      check(value, path);
      return value as T;
    },
  };
}
