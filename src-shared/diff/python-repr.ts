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
import { DESCEND, mapJson, writeValueText, type TextStyle } from '../json/tree';
import { pythonNumber, pythonString } from '../python/repr';

/** What `json.dumps(value, default=str)` sees: models become repr strings, containers are copied. */
export function dumpsDefaultStr(value: unknown): unknown {
  return mapJson(value, { enter: (item) => (isModel(item) ? pythonRepr(item) : DESCEND) });
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

/** repr() of what JSON can carry: None, True/False, numbers, strings; lists and dicts; models as their pydantic repr. */
const PYTHON_REPR: TextStyle = {
  scalar(value) {
    if (value === null || value === undefined) return 'None';
    if (value === true) return 'True';
    if (value === false) return 'False';
    if (typeof value === 'number') return pythonNumber(value);
    if (typeof value === 'string') return pythonString(value);
    // Not a JSON value (functions, symbols): nothing Python would have sent.
    return 'None';
  },
  open: (container) =>
    Array.isArray(container) ? '[' : isModel(container) ? `${modelClassName(container['type'] as string)}(` : '{',
  close: (container) => (Array.isArray(container) ? ']' : isModel(container) ? ')' : '}'),
  member(container, key, index) {
    const separator = index > 0 ? ', ' : '';
    if (key === undefined) return separator;
    return isModel(container) ? `${separator}${key}=` : `${separator}${pythonString(key)}: `;
  },
};

export function pythonRepr(value: unknown): string {
  return writeValueText(value, PYTHON_REPR);
}
