/**
 * Walks over parsed JSON with an explicit stack, never the call stack. Values come from
 * streams and files, and an envelope of 10 KB can nest 5,000 levels deep: JSON.parse takes
 * that, but a recursive walk (JSON.stringify included) overflows the stack on it. Everything
 * that serialises, compares, copies or describes a parsed value goes through this module.
 */

type Container = unknown[] | Record<string, unknown>;

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: Container): value is Record<string, unknown> {
  return !Array.isArray(value);
}

/** Members JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Sets `key` on `target` as an own data property, even when it is "__proto__". */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** How a tree is written as text: JSON, Python's repr, … */
export interface TextStyle {
  /** Text of a value that is not a container; undefined where JSON.stringify gives undefined. */
  scalar(value: unknown): string | undefined;
  open(container: Container): string;
  close(container: Container, depth: number, members: number): string;
  /** What precedes one member: a separator, indentation and the key (undefined for array items). */
  member(container: Container, key: string | undefined, index: number, depth: number): string;
}

interface WriteFrame {
  container: Container;
  keys: string[] | null;
  next: number;
  written: number;
  depth: number;
}

/** Array-index keys (what an object lists first, in numeric order), as JSON.parse builds objects. */
const INDEX_KEY = /^(?:0|[1-9]\d{0,9})$/;

function isIndexKey(key: string): boolean {
  return INDEX_KEY.test(key) && Number(key) < 2 ** 32 - 1;
}

/**
 * Keys sorted the way an object built in sorted order lists them: index keys first in numeric
 * order, then the others sorted. Matches what sorting into a fresh object and serialising gave.
 */
function sortedKeys(keys: string[]): string[] {
  const indexes = keys.filter(isIndexKey).sort((a, b) => Number(a) - Number(b));
  return indexes.length === 0 ? keys.sort() : [...indexes, ...keys.filter((key) => !isIndexKey(key)).sort()];
}

function circular(): never {
  throw new TypeError('Converting circular structure to text');
}

/**
 * Writes a value in `style` with an explicit stack; `undefined` for a top-level omitted value.
 * A container at `collapseAt` levels deep is written as `collapsed` says instead of opened.
 */
function writeTree(
  root: unknown,
  style: TextStyle,
  sortKeys: boolean,
  collapseAt = Infinity,
  collapsed?: (container: Container) => string,
): string | undefined {
  if (!isContainer(root)) return style.scalar(root);
  const out: string[] = [];
  const path = new Set<Container>();
  const stack: WriteFrame[] = [];
  const open = (container: Container, depth: number): void => {
    if (collapsed && depth >= collapseAt) {
      out.push(collapsed(container));
      return;
    }
    if (path.has(container)) circular();
    path.add(container);
    out.push(style.open(container));
    const own = isPlainObject(container) ? Object.keys(container) : null;
    const keys = own && sortKeys ? sortedKeys(own) : own;
    stack.push({ container, keys, next: 0, written: 0, depth });
  };
  open(root, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as WriteFrame;
    const { container, keys } = frame;
    let key: string | undefined;
    let value: unknown;
    let found = false;
    if (keys === null) {
      const items = container as unknown[];
      if (frame.next < items.length) {
        value = items[frame.next];
        if (isOmitted(value)) value = null;
        frame.next++;
        found = true;
      }
    } else {
      while (frame.next < keys.length) {
        const name = keys[frame.next++] as string;
        key = name;
        value = (container as Record<string, unknown>)[name];
        if (!isOmitted(value)) {
          found = true;
          break;
        }
      }
    }
    if (!found) {
      out.push(style.close(container, frame.depth, frame.written));
      path.delete(container);
      stack.pop();
      continue;
    }
    out.push(style.member(container, key, frame.written++, frame.depth));
    if (isContainer(value)) open(value, frame.depth + 1);
    else out.push(style.scalar(value) ?? 'null');
  }
  return out.join('');
}

function jsonStyle(indent: number): TextStyle {
  const newline = (depth: number): string => (indent > 0 ? `\n${' '.repeat(indent * depth)}` : '');
  return {
    scalar(value) {
      if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
      return JSON.stringify(value);
    },
    open: (container) => (Array.isArray(container) ? '[' : '{'),
    close: (container, depth, members) => (members > 0 ? newline(depth) : '') + (Array.isArray(container) ? ']' : '}'),
    member(_container, key, index, depth) {
      const head = (index > 0 ? ',' : '') + newline(depth + 1);
      return key === undefined ? head : `${head}${JSON.stringify(key)}:${indent > 0 ? ' ' : ''}`;
    },
  };
}

const JSON_STYLES = new Map<number, TextStyle>();

/**
 * JSON.stringify(value, null, indent) for parsed JSON of any depth: the native serialiser
 * when the value is shallow enough for it, the same text from an explicit stack when not.
 * `sortKeys` writes object keys sorted (so equal values always print the same text).
 */
export function stringifyJson(
  value: unknown,
  options: { indent?: number; sortKeys?: boolean } = {},
): string | undefined {
  const indent = options.indent ?? 0;
  if (!options.sortKeys) {
    try {
      return JSON.stringify(value, null, indent);
    } catch (error) {
      // Only a stack overflow is the native serialiser's limit; other errors (cycles) are real.
      if (!(error instanceof RangeError)) throw error;
    }
  }
  let style = JSON_STYLES.get(indent);
  if (!style) JSON_STYLES.set(indent, (style = jsonStyle(indent)));
  return writeTree(value, style, options.sortKeys ?? false);
}

/**
 * Pretty JSON for reading: a container nested `maxDepth` levels deep is written as one string
 * that says what it holds (`"[… 1 item]"`), so a value nested thousands of levels deep reads
 * as a few lines instead of a staircase of brackets. Still JSON (the marker is a string); the
 * exact text stays in the raw bytes. The marker does not say how deep the rest goes: a value
 * that crossed the contract already carries its deepest part as JSON text (limitJsonDepth).
 */
export function stringifyJsonCollapsed(value: unknown, maxDepth: number, indent = 2): string | undefined {
  let style = JSON_STYLES.get(indent);
  if (!style) JSON_STYLES.set(indent, (style = jsonStyle(indent)));
  return writeTree(value, style, false, maxDepth, collapsedMarker);
}

function collapsedMarker(container: Container): string {
  const array = Array.isArray(container);
  const members = array ? container.length : Object.keys(container).length;
  const what = `${members.toLocaleString('en-US')} ${array ? 'item' : 'key'}${members === 1 ? '' : 's'}`;
  return JSON.stringify(array ? `[… ${what}]` : `{… ${what}}`);
}

/** `stringifyJson` as text: '' for what JSON cannot carry (undefined, a function). */
export function jsonText(value: unknown): string {
  return stringifyJson(value) ?? '';
}

/** A writer for another language's literal syntax (Python's repr), on the same explicit stack. */
export function writeValueText(value: unknown, style: TextStyle): string {
  return writeTree(value, style, false) ?? '';
}

/** Returned by `JsonMapper.enter` to copy a container member by member. */
export const DESCEND: unique symbol = Symbol('descend');

export interface JsonMapper {
  /** A replacement for a value before its members are visited, or DESCEND to copy it. */
  enter?(value: unknown, depth: number): unknown;
  /** The key a member is copied under, or undefined to leave the member out. */
  key?(key: string, parent: Record<string, unknown>): string | undefined;
  /** The copy of a value that is not a container. */
  leaf?(value: unknown): unknown;
  sortKeys?: boolean;
}

interface CopyFrame {
  source: Container;
  target: Container;
  keys: string[] | null;
  next: number;
  depth: number;
}

/**
 * A copy of a JSON value, built depth first in document order with an explicit stack;
 * `mapper` replaces values, renames or drops keys and maps leaves on the way.
 */
export function mapJson(root: unknown, mapper: JsonMapper): unknown {
  const path = new Set<Container>();
  const stack: CopyFrame[] = [];
  const copy = (value: unknown, depth: number): unknown => {
    const replaced = mapper.enter ? mapper.enter(value, depth) : DESCEND;
    if (replaced !== DESCEND) return replaced;
    if (!isContainer(value)) return mapper.leaf ? mapper.leaf(value) : value;
    if (path.has(value)) circular();
    path.add(value);
    const target: Container = Array.isArray(value) ? new Array<unknown>(value.length) : {};
    const own = isPlainObject(value) ? Object.keys(value) : null;
    const keys = own && mapper.sortKeys ? sortedKeys(own) : own;
    stack.push({ source: value, target, keys, next: 0, depth });
    return target;
  };
  const result = copy(root, 0);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as CopyFrame;
    const { source, target, keys } = frame;
    if (keys === null) {
      const items = source as unknown[];
      if (frame.next < items.length) {
        const index = frame.next++;
        (target as unknown[])[index] = copy(items[index], frame.depth + 1);
        continue;
      }
    } else if (frame.next < keys.length) {
      const key = keys[frame.next++] as string;
      const object = source as Record<string, unknown>;
      const name = mapper.key ? mapper.key(key, object) : key;
      if (name !== undefined) setMember(target as Record<string, unknown>, name, copy(object[key], frame.depth + 1));
      continue;
    }
    path.delete(source);
    stack.pop();
  }
  return result;
}

/** Deep equality of parsed JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const pairs: [unknown, unknown][] = [[a, b]];
  while (pairs.length > 0) {
    const [x, y] = pairs.pop() as [unknown, unknown];
    if (x === y) continue;
    if (!isContainer(x) || !isContainer(y)) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x) && Array.isArray(y)) {
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pairs.push([x[i], y[i]]);
      continue;
    }
    const rx = x as Record<string, unknown>;
    const ry = y as Record<string, unknown>;
    const keys = Object.keys(rx);
    if (keys.length !== Object.keys(ry).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(ry, key)) return false;
      pairs.push([rx[key], ry[key]]);
    }
  }
  return true;
}

/** How many containers deep a value nests (0 for a scalar, 1 for `[]` or `{"a":1}`), counting no further than `limit`. */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (!isContainer(item)) continue;
    if (depth > deepest) deepest = depth;
    if (deepest >= limit) return deepest;
    for (const member of Object.values(item)) if (isContainer(member)) stack.push([member, depth + 1]);
  }
  return deepest;
}

/**
 * The value with every container nested `maxDepth` or more levels below the top replaced by
 * its compact JSON text, so it crosses a boundary that bounds nesting (the contract, a
 * structured clone) without losing a character. The value itself when it is shallow enough.
 */
export function limitJsonDepth(value: unknown, maxDepth: number): unknown {
  if (jsonDepth(value, maxDepth + 1) <= maxDepth) return value;
  return mapJson(value, {
    enter: (item, depth) => (depth >= maxDepth && isContainer(item) ? stringifyJson(item) : DESCEND),
  });
}
