/**
 * CPython's `repr()` of str, int and float, byte for byte: the demo agent prints SDK objects
 * the way the upstream server does, and the diff renders structured JSON the way Python would
 * to compare it with that text.
 */

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

/**
 * `float.__repr__`: the shortest round-tripping digits (which JavaScript also computes),
 * laid out by CPython's rule: positional when the decimal exponent is in (-4, 16], else
 * `d.ddde±XX`; always with a `.0` when integral.
 */
export function pythonFloat(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
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

/**
 * repr() of a number that came through JSON, which cannot tell the float 1.0 from the int 1:
 * integral values below 1e16 print as ints, everything else as floats.
 */
export function pythonNumber(n: number): string {
  return Number.isInteger(n) && Math.abs(n) < 1e16 ? String(n) : pythonFloat(n);
}
