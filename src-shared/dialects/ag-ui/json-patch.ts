import { isJsonObject, jsonEqual, jsonKind } from '../../json/values';
import { PATCH_OPERATIONS } from './vocabulary';

/**
 * RFC 6902 JSON Patch, applied the way AG-UI's STATE_DELTA requires (docs/protocols/ag-ui.md,
 * "State"): operations in order, atomically — when one fails the document is left as it was —
 * and an operation RFC 6902 does not define is dropped, not a failure. No step recurses: a
 * pointer is walked in a loop, and every operation copies only the containers on its path
 * (the document given is never changed, so a failed patch costs nothing to undo, and values
 * the patch shares with the event stay as the event has them).
 */

type Container = Record<string, unknown> | unknown[];

export type PatchResult =
  { ok: true; value: unknown; dropped: string[] } | { ok: false; error: string; operation?: number };

/** `patch` applied to `document`: the new document, or why the patch does not apply. */
export function applyPatch(document: unknown, patch: unknown): PatchResult {
  if (!Array.isArray(patch)) return { ok: false, error: `the patch is a JSON ${jsonKind(patch)}, not an array` };
  let value = document;
  const dropped: string[] = [];
  for (let index = 0; index < patch.length; index++) {
    const operation: unknown = patch[index];
    const step = applyOperation(value, operation);
    if (step.ok) value = step.value;
    else if (step.dropped) dropped.push(`operation ${index} (${String((operation as { op: unknown }).op)})`);
    else return { ok: false, error: `operation ${index}: ${step.error}`, operation: index };
  }
  return { ok: true, value, dropped };
}

type Step = { ok: true; value: unknown } | { ok: false; error: string; dropped?: true };

function applyOperation(document: unknown, operation: unknown): Step {
  if (!isJsonObject(operation)) return fail(`is a JSON ${jsonKind(operation)}, not an operation object`);
  const op = operation['op'];
  const path = operation['path'];
  if (typeof op !== 'string') return fail('has no string "op"');
  if (!PATCH_OPERATIONS.has(op)) return { ok: false, error: `"op" ${op} is not an RFC 6902 operation`, dropped: true };
  if (typeof path !== 'string') return fail(`${op} has no string "path"`);
  const target = parsePointer(path);
  if (!target.ok) return target;
  const needsValue = op === 'add' || op === 'replace' || op === 'test';
  if (needsValue && !('value' in operation)) return fail(`${op} at ${path} has no "value"`);
  const value = operation['value'];
  switch (op) {
    case 'add':
      return add(document, target.tokens, value, path);
    case 'remove':
      return remove(document, target.tokens, path);
    case 'replace':
      return replace(document, target.tokens, value, path);
    case 'test': {
      const found = get(document, target.tokens, path);
      if (!found.ok) return found;
      return jsonEqual(found.value, value)
        ? { ok: true, value: document }
        : fail(`test at ${path} failed: the value differs`);
    }
    default: {
      // move and copy: the value at `from`, added at `path` (after removing it, for move).
      const from = operation['from'];
      if (typeof from !== 'string') return fail(`${op} to ${path} has no string "from"`);
      const source = parsePointer(from);
      if (!source.ok) return source;
      const found = get(document, source.tokens, from);
      if (!found.ok) return found;
      if (op === 'copy') return add(document, target.tokens, found.value, path);
      if (isProperPrefix(source.tokens, target.tokens)) return fail(`move from ${from} into its own child ${path}`);
      const removed = remove(document, source.tokens, from);
      return removed.ok ? add(removed.value, target.tokens, found.value, path) : removed;
    }
  }
}

function fail(error: string): { ok: false; error: string } {
  return { ok: false, error };
}

/** RFC 6901: '' is the whole document, else '/'-separated tokens with ~1 for '/' and ~0 for '~'. */
function parsePointer(pointer: string): { ok: true; tokens: string[] } | { ok: false; error: string } {
  if (pointer === '') return { ok: true, tokens: [] };
  if (!pointer.startsWith('/')) return fail(`path ${JSON.stringify(pointer)} does not start with "/"`);
  return {
    ok: true,
    tokens: pointer
      .slice(1)
      .split('/')
      .map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~')),
  };
}

function isProperPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  return prefix.length < tokens.length && prefix.every((token, i) => token === tokens[i]);
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** The member `token` names in `container` (an array index must exist), or undefined. */
function member(container: Container, token: string): { value: unknown } | undefined {
  if (Array.isArray(container)) {
    if (!ARRAY_INDEX.test(token)) return undefined;
    const index = Number(token);
    return index < container.length ? { value: container[index] } : undefined;
  }
  return Object.hasOwn(container, token) ? { value: container[token] } : undefined;
}

/** The containers from the document down to the parent of the pointer's last token. */
function parentsOf(
  document: unknown,
  tokens: readonly string[],
  pointer: string,
): { ok: true; chain: Container[] } | { ok: false; error: string } {
  const chain: Container[] = [];
  let current = document;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (!isContainer(current)) return fail(`path ${pointer} goes through a ${jsonKind(current)}`);
    const next = member(current, tokens[i] as string);
    if (!next) return fail(`path ${pointer} does not exist (no ${tokens.slice(0, i + 1).join('/')})`);
    chain.push(current);
    current = next.value;
  }
  if (!isContainer(current)) return fail(`the parent of ${pointer} is a ${jsonKind(current)}, not an object or array`);
  chain.push(current);
  return { ok: true, chain };
}

function get(document: unknown, tokens: readonly string[], pointer: string): Step {
  if (tokens.length === 0) return { ok: true, value: document };
  const parents = parentsOf(document, tokens, pointer);
  if (!parents.ok) return parents;
  const found = member(parents.chain[parents.chain.length - 1] as Container, tokens[tokens.length - 1] as string);
  return found ? { ok: true, value: found.value } : fail(`path ${pointer} does not exist`);
}

/** The document with the containers above `changed` (the copied, changed parent) copied to point at it. */
function rebuild(chain: readonly Container[], tokens: readonly string[], changed: Container): unknown {
  let child: unknown = changed;
  for (let i = chain.length - 2; i >= 0; i--) {
    const copy = shallowCopy(chain[i] as Container);
    setMember(copy, tokens[i] as string, child);
    child = copy;
  }
  return child;
}

function shallowCopy(container: Container): Container {
  return Array.isArray(container) ? container.slice() : { ...container };
}

function setMember(container: Container, token: string, value: unknown): void {
  if (Array.isArray(container)) container[Number(token)] = value;
  // A "__proto__" member from the wire stays a plain member: assignment would set the prototype.
  else Object.defineProperty(container, token, { value, enumerable: true, writable: true, configurable: true });
}

function add(document: unknown, tokens: readonly string[], value: unknown, pointer: string): Step {
  if (tokens.length === 0) return { ok: true, value };
  const parents = parentsOf(document, tokens, pointer);
  if (!parents.ok) return parents;
  const parent = shallowCopy(parents.chain[parents.chain.length - 1] as Container);
  const token = tokens[tokens.length - 1] as string;
  if (Array.isArray(parent)) {
    const index = token === '-' ? parent.length : ARRAY_INDEX.test(token) ? Number(token) : -1;
    if (index < 0 || index > parent.length) return fail(`index ${token} is out of the array's bounds at ${pointer}`);
    parent.splice(index, 0, value);
  } else {
    setMember(parent, token, value);
  }
  return { ok: true, value: rebuild(parents.chain, tokens, parent) };
}

/** Replace keeps the member where it is (an object's key order, an array's index). */
function replace(document: unknown, tokens: readonly string[], value: unknown, pointer: string): Step {
  if (tokens.length === 0) return { ok: true, value };
  return changeExisting(document, tokens, pointer, (parent, token) => setMember(parent, token, value));
}

function remove(document: unknown, tokens: readonly string[], pointer: string): Step {
  if (tokens.length === 0) return fail('the whole document cannot be removed');
  return changeExisting(document, tokens, pointer, (parent, token) => {
    if (Array.isArray(parent)) parent.splice(Number(token), 1);
    else delete parent[token];
  });
}

/** `change` applied to a copy of the parent of a member that must exist. */
function changeExisting(
  document: unknown,
  tokens: readonly string[],
  pointer: string,
  change: (parent: Container, token: string) => void,
): Step {
  const parents = parentsOf(document, tokens, pointer);
  if (!parents.ok) return parents;
  const original = parents.chain[parents.chain.length - 1] as Container;
  const token = tokens[tokens.length - 1] as string;
  if (!member(original, token)) return fail(`path ${pointer} does not exist`);
  const parent = shallowCopy(original);
  change(parent, token);
  return { ok: true, value: rebuild(parents.chain, tokens, parent) };
}
