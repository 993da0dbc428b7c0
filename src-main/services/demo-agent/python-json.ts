/**
 * Python's serialisers, reproduced byte for byte where the upstream server uses them:
 * `json.dumps` (default separators `", "`/`": "` or compact, `ensure_ascii` on or off),
 * `repr()` of SDK model objects (what `json.dumps(..., default=str)` prints for them) and
 * `html.escape(..., quote=True)`.
 */

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

export type PyValue = null | boolean | number | string | PyFloat | PyModel | readonly PyValue[] | { readonly [key: string]: PyValue };

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
    else if (typeof v === 'number') out.push(pyNumber(v));
    else if (typeof v === 'string') out.push(jsonString(v, ensureAscii));
    else if (v instanceof PyFloat) out.push(pyFloatRepr(v.value));
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
  if (typeof value === 'number') return pyNumber(value);
  if (typeof value === 'string') return pyStrRepr(value);
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (value instanceof PyModel) {
    const fields = Object.entries(value.fields).map(([k, v]) => `${k}=${pyRepr(v)}`);
    return `${value.className}(${fields.join(', ')})`;
  }
  if (isPyList(value)) return `[${value.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

/** `html.escape(text, quote=True)`. */
export function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

function isPyList(value: PyValue): value is readonly PyValue[] {
  return Array.isArray(value);
}

function mapValues(object: Readonly<Record<string, PyValue>>, fn: (v: PyValue) => PyValue): Record<string, PyValue> {
  const out: Record<string, PyValue> = {};
  for (const [key, item] of Object.entries(object)) out[key] = fn(item);
  return out;
}

function pyNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? String(n) : pyFloatRepr(n);
}

/**
 * `float.__repr__`: the shortest round-tripping digits (which JavaScript also computes),
 * laid out by CPython's rule: positional when the decimal exponent is in (-4, 16], else
 * `d.ddde±XX`; always with a `.0` when integral.
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa = '0', exponent = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(exponent);
  const decpt = exp + 1;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const head = digits.length > 1 ? `${digits[0] ?? ''}.${digits.slice(1)}` : digits;
  return `${sign}${head}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

const JSON_SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x22: '\\"', 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t', 0x08: '\\b', 0x0c: '\\f' };

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

const REPR_SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x5c: '\\\\', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

/** `repr(str)`: single quotes unless the text has a ' and no ", non-printables as \xNN. */
function pyStrRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const short = REPR_SHORT_ESCAPES[code];
    if (short) out += short;
    else if (char === quote) out += `\\${quote}`;
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0)) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + quote;
}
