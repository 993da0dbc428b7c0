import { isJsonObject } from '../../json/values';

/**
 * A function call's arguments streamed as Vertex AI sends them with
 * `streamFunctionCallArguments` (docs/protocols/gemini.md): each `partialArgs` entry sets one
 * value at a JSON path (RFC 9535, `$.recipe.steps[3]`), and a string whose entry says
 * `willContinue` goes on in the next entry for the same path. The arguments object is built
 * as they come; a path that cannot be applied is returned as a problem, never thrown.
 */

type Step = string | number;
type Container = Record<string, unknown> | unknown[];

/**
 * The steps of a JSON path of names and indexes: `$`, then `.name`, `['name']` /
 * `["name"]` or `[n]`. Undefined for anything else (filters, wildcards, slices), which no
 * streamed argument uses.
 */
export function parseJsonPath(path: string): Step[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const steps: Step[] = [];
  let i = 1;
  while (i < path.length) {
    const c = path.charAt(i);
    if (c === '.') {
      let end = i + 1;
      while (end < path.length && path.charAt(end) !== '.' && path.charAt(end) !== '[') end++;
      if (end === i + 1) return undefined;
      steps.push(path.slice(i + 1, end));
      i = end;
    } else if (c === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return undefined;
      const inner = path.slice(i + 1, close);
      const quote = inner.charAt(0);
      if ((quote === "'" || quote === '"') && inner.length >= 2 && inner.endsWith(quote))
        steps.push(inner.slice(1, -1));
      else if (/^(0|[1-9]\d{0,8})$/.test(inner)) steps.push(Number(inner));
      else return undefined;
      i = close + 1;
    } else return undefined;
  }
  return steps;
}

/** Sets a key on an object: a `__proto__` key from the wire stays a plain key (assignment would set the prototype). */
function setKey(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

function getKey(container: Container, step: Step): unknown {
  if (Array.isArray(container)) return typeof step === 'number' ? container[step] : undefined;
  return typeof step === 'string' && Object.hasOwn(container, step) ? container[step] : undefined;
}

/** The value a partial argument carries, or undefined when it carries none of the four. */
export function partialValue(arg: Record<string, unknown>): { value: unknown } | undefined {
  if (typeof arg['stringValue'] === 'string') return { value: arg['stringValue'] };
  if (typeof arg['numberValue'] === 'number') return { value: arg['numberValue'] };
  if (typeof arg['boolValue'] === 'boolean') return { value: arg['boolValue'] };
  if ('nullValue' in arg) return { value: null };
  return undefined;
}

export class PartialArguments {
  readonly root: Record<string, unknown> = {};
  /** The path whose string value continues in the next entry, if one does. */
  private continuing: string | undefined;
  /** Entries applied so far. */
  count = 0;

  /** Applies one `partialArgs` entry; returns what is wrong with it, or undefined. */
  apply(arg: unknown): string | undefined {
    if (!isJsonObject(arg)) return 'an entry that is not an object';
    const path = arg['jsonPath'];
    if (typeof path !== 'string') return 'an entry without a string jsonPath';
    const steps = parseJsonPath(path);
    if (!steps || steps.length === 0) return `the JSON path ${JSON.stringify(path)}, which names no argument`;
    const carried = partialValue(arg);
    if (!carried) return `the entry for ${path}, which carries no value`;
    const parent = this.containerFor(steps);
    if (typeof parent === 'string') return `the entry for ${path}: ${parent}`;
    const last = steps[steps.length - 1] as Step;
    let value = carried.value;
    const previous = getKey(parent, last);
    if (this.continuing === path && typeof previous === 'string' && typeof value === 'string') value = previous + value;
    const placed = place(parent, last, value);
    if (placed) return `the entry for ${path}: ${placed}`;
    this.continuing = arg['willContinue'] === true && typeof carried.value === 'string' ? path : undefined;
    this.count++;
    return undefined;
  }

  /** The container the path's last step is in, made as needed; a message when the path cannot be followed. */
  private containerFor(steps: readonly Step[]): Container | string {
    let container: Container = this.root;
    for (let i = 0; i < steps.length - 1; i++) {
      const step = steps[i] as Step;
      const next = steps[i + 1] as Step;
      let child = getKey(container, step);
      if (child === undefined) {
        child = typeof next === 'number' ? [] : {};
        const placed = place(container, step, child);
        if (placed) return placed;
      }
      if (typeof child !== 'object' || child === null) return `step ${i + 1} goes into a ${typeof child}`;
      if (Array.isArray(child) !== (typeof next === 'number'))
        return `step ${i + 2} indexes ${Array.isArray(child) ? 'an array by name' : 'an object by number'}`;
      container = child as Container;
    }
    return container;
  }
}

/**
 * Puts a value under a key or index. Arrays grow one element at a time, as the API fills
 * them: an index past the end would make a hole (and a huge index a huge array).
 */
function place(container: Container, step: Step, value: unknown): string | undefined {
  if (Array.isArray(container)) {
    if (typeof step !== 'number') return 'it names a key of an array';
    if (step > container.length) return `index ${step} skips past the array's ${container.length} elements`;
    container[step] = value;
    return undefined;
  }
  if (typeof step !== 'string') return 'it indexes an object by number';
  setKey(container, step, value);
  return undefined;
}
