/**
 * Python's serialisers, reproduced byte for byte where the upstream server uses them:
 * `json.dumps` (default separators `", "`/`": "` or compact, `ensure_ascii` on or off),
 * `repr()` of SDK model objects (what `json.dumps(..., default=str)` prints for them). The
 * repr of str, int and float is shared with the diff (src-shared/python/repr.ts).
 */
import { pythonFloat, pythonNumber, pythonString } from '../../../src-shared/python/repr';

/** A Python float whose value is integral: Python prints `0.0` where JavaScript prints `0`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** An SDK (pydantic) model: `str()` gives `ClassName(field=repr, …)`, `model_dump` gives an object. */
export class PyModel {
  constructor(
    readonly className: string,
    readonly fields: Readonly<Record<string, PyValue>>,
  ) {}
}

export type PyValue =
  null | boolean | number | string | PyFloat | PyModel | readonly PyValue[] | { readonly [key: string]: PyValue };

export const pyFloat = (value: number): PyFloat => new PyFloat(value);

export interface DumpsOptions {
  /** Python's default is true: every non-ASCII character becomes `\uXXXX`. */
  ensureAscii?: boolean;
  /** `separators=(",", ":")` instead of the default `(", ", ": ")`. */
  compact?: boolean;
}

/**
 * `json.dumps(value, ensure_ascii=…, separators=…, default=str)`. Integral JS numbers print as
 * Python ints, other numbers and PyFloat as Python floats; a PyModel prints as its repr string.
 */
export function pyDumps(value: PyValue, options: DumpsOptions = {}): string {
  const ensureAscii = options.ensureAscii ?? true;
  const itemSep = options.compact ? ',' : ', ';
  const keySep = options.compact ? ':' : ': ';
  const out: string[] = [];
  const write = (v: PyValue): void => {
    if (v === null) out.push('null');
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (typeof v === 'number') out.push(jsonNumber(v, false));
    else if (typeof v === 'string') out.push(jsonString(v, ensureAscii));
    else if (v instanceof PyFloat) out.push(jsonNumber(v.value, true));
    else if (v instanceof PyModel) out.push(jsonString(pyRepr(v), ensureAscii));
    else if (isPyList(v)) {
      out.push('[');
      v.forEach((item, i) => {
        if (i > 0) out.push(itemSep);
        write(item);
      });
      out.push(']');
    } else {
      out.push('{');
      Object.entries(v).forEach(([key, item], i) => {
        if (i > 0) out.push(itemSep);
        out.push(jsonString(key, ensureAscii), keySep);
        write(item);
      });
      out.push('}');
    }
  };
  write(value);
  return out.join('');
}

/** pydantic's `model_dump_json()`: compact separators, non-ASCII kept as UTF-8. */
export function modelDumpJson(value: PyValue): string {
  return pyDumps(value, { ensureAscii: false, compact: true });
}

/** `model_dump(mode="json")`: models become plain objects, everything else is kept. */
export function toPlain(value: PyValue): PyValue {
  if (value instanceof PyModel) return mapValues(value.fields, toPlain);
  if (isPyList(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object' && !(value instanceof PyFloat)) return mapValues(value, toPlain);
  return value;
}

/** Python's `repr()` of str, None, bool, int, float, list, dict and SDK models. */
export function pyRepr(value: PyValue): string {
  if (value === null) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return pythonNumber(value);
  if (typeof value === 'string') return pythonString(value);
  if (value instanceof PyFloat) return pythonFloat(value.value);
  if (value instanceof PyModel) {
    const fields = Object.entries(value.fields).map(([k, v]) => `${k}=${pyRepr(v)}`);
    return `${value.className}(${fields.join(', ')})`;
  }
  if (isPyList(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value)
    .map(([k, v]) => `${pythonString(k)}: ${pyRepr(v)}`)
    .join(', ')}}`;
}

function isPyList(value: PyValue): value is readonly PyValue[] {
  return Array.isArray(value);
}

function mapValues(object: Readonly<Record<string, PyValue>>, fn: (v: PyValue) => PyValue): Record<string, PyValue> {
  const out: Record<string, PyValue> = {};
  for (const [key, item] of Object.entries(object)) out[key] = fn(item);
  return out;
}

/** A number as json.dumps writes it: repr() of the int or float, but NaN and ±Infinity for the non-finite. */
function jsonNumber(n: number, isFloat: boolean): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  return isFloat ? pythonFloat(n) : pythonNumber(n);
}

const JSON_SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x22: '\\"',
  0x5c: '\\\\',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x08: '\\b',
  0x0c: '\\f',
};

function unicodeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Python's JSON string encoder: with ensure_ascii, everything outside ' '..'~' is escaped per UTF-16 unit. */
function jsonString(text: string, ensureAscii: boolean): string {
  let out = '"';
  let runStart = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const needsEscape = code < 0x20 || code === 0x22 || code === 0x5c || (ensureAscii && code > 0x7e);
    if (!needsEscape) continue;
    out += text.slice(runStart, i) + (JSON_SHORT_ESCAPES[code] ?? unicodeEscape(code));
    runStart = i + 1;
  }
  return `${out}${text.slice(runStart)}"`;
}
