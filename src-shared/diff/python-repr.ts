/**
 * The Python text upstream's json and xml formats send for a server tool result:
 * `json.dumps(block.content, default=str)` of Anthropic SDK models (upstream-protocol §4 #19),
 * i.e. each model becomes its pydantic repr `BetaXxxBlock(field=repr, …)` inside a JSON
 * string. The raw format carries the same content as structured JSON; rendering that JSON the
 * way Python would lets the two be compared.
 *
 * Assumptions, checked against the fixtures: a JSON object with a string `type` is an SDK
 * model named `Beta` + PascalCase(type) + `Block` (no `Block` when the name ends in `Error`),
 * fields in the order the wire gave them; other objects are dicts. JSON cannot tell the float
 * 1.0 from the int 1, so integral numbers print as ints.
 */

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
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)['type'] === 'string';
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

/** repr(float) / repr(int): shortest round-trip digits, exponent outside 1e-4 ≤ |x| < 1e16. */
export function pythonNumber(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const [mantissa = '0', exponentText = '0'] = n.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(n);
}

/** Characters Python's str.isprintable() rejects: other (C*) and separators (Z*) except space. */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** repr(str): single quotes unless the text has ' and no ", escapes as CPython writes them. */
export function pythonString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === quote || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char !== ' ' && NON_PRINTABLE.test(char)) out += escapeCode(code);
    else out += char;
  }
  return out + quote;
}

function escapeCode(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`;
  return `\\U${code.toString(16).padStart(8, '0')}`;
}
