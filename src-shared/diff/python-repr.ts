/**
 * The Python text upstream's json and xml formats send for a server tool result:
 * `json.dumps(block.content, default=str)` of Anthropic SDK models (docs/protocols/upstream-protocol.md §4 #19),
 * i.e. each model becomes its pydantic repr `BetaXxxBlock(field=repr, …)` inside a JSON
 * string. The raw format carries the same content as structured JSON; rendering that JSON the
 * way Python would lets the two be compared.
 *
 * Assumptions, checked against the fixtures: a JSON object with a string `type` is an SDK
 * model named `Beta` + PascalCase(type) + `Block` (no `Block` when the name ends in `Error`),
 * fields in the order the wire gave them; other objects are dicts. JSON cannot tell the float
 * 1.0 from the int 1, so integral numbers print as ints.
 */
import { isJsonObject } from '../json/values';
import { pythonNumber, pythonString } from '../python/repr';

/** What `json.dumps(value, default=str)` sees: models become repr strings, containers recurse. */
export function dumpsDefaultStr(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dumpsDefaultStr);
  if (isModel(value)) return pythonRepr(value);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = dumpsDefaultStr(item);
    return out;
  }
  return value;
}

function isModel(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && typeof value['type'] === 'string';
}

export function modelClassName(type: string): string {
  const pascal = type
    .split('_')
    .map((part) => (part ? part[0]?.toUpperCase() + part.slice(1) : ''))
    .join('');
  return `Beta${pascal}${pascal.endsWith('Error') ? '' : 'Block'}`;
}

export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (isModel(value)) return `${modelClassName(value['type'] as string)}(${entries.map(([k, v]) => `${k}=${pythonRepr(v)}`).join(', ')})`;
    return `{${entries.map(([k, v]) => `${pythonString(k)}: ${pythonRepr(v)}`).join(', ')}}`;
  }
  // Not a JSON value (functions, symbols): nothing Python would have sent.
  return 'None';
}
