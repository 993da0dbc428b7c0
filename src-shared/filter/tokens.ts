import type { DurationUnit } from './ast';
import { FilterError } from './errors';

export type TokenKind = 'ident' | 'string' | 'number' | 'duration' | 'op' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** ident and op: the text; string: the decoded value; number/duration: the digits. */
  readonly text: string;
  readonly value?: number;
  readonly unit?: DurationUnit;
  readonly at: number;
  readonly length: number;
}

/** Longest first, so `<=` is not read as `<` then `=`. */
const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '(', ')', '[', ']', ',', ':', '.'] as const;

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_]/;
const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const UNIT = /^(ms|s|m)(?![A-Za-z0-9_])/;

const ESCAPES: Record<string, string> = {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Splits an expression into tokens. Identifiers may contain dots (`block.kind`); strings take
 * double or single quotes and JSON's escapes; numbers may carry a duration unit (`2s`).
 */
export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (IDENT_START.test(c)) {
      i++;
      while (
        i < source.length &&
        (IDENT_PART.test(source[i]!) || (source[i] === '.' && IDENT_START.test(source[i + 1] ?? '')))
      )
        i++;
      tokens.push({ kind: 'ident', text: source.slice(start, i), at: start, length: i - start });
      continue;
    }
    if (c === '"' || c === "'") {
      const [value, end] = readString(source, i);
      tokens.push({ kind: 'string', text: value, at: start, length: end - start });
      i = end;
      continue;
    }
    const number = NUMBER.exec(source.slice(i, i + 64));
    if (number && (c !== '-' || /\d/.test(source[i + 1] ?? ''))) {
      i += number[0].length;
      const unit = UNIT.exec(source.slice(i, i + 3));
      const value = Number(number[0]);
      if (unit) {
        i += unit[0].length;
        tokens.push({
          kind: 'duration',
          text: number[0],
          value,
          unit: unit[1] as DurationUnit,
          at: start,
          length: i - start,
        });
      } else {
        if (IDENT_START.test(source[i] ?? ''))
          throw new FilterError(`A number cannot be followed by '${source[i]}'; durations take ms, s or m`, i);
        tokens.push({ kind: 'number', text: number[0], value, at: start, length: i - start });
      }
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op) {
      tokens.push({ kind: 'op', text: op, at: start, length: op.length });
      i += op.length;
      continue;
    }
    if (c === '=') throw new FilterError("Use '==' to compare", i);
    if (c === '&' || c === '|') throw new FilterError(`Use '${c}${c}'`, i);
    throw new FilterError(`Unexpected character ${JSON.stringify(c)}`, i);
  }
  tokens.push({ kind: 'end', text: '', at: source.length, length: 1 });
  return tokens;
}

function readString(source: string, open: number): [string, number] {
  const quote = source[open]!;
  let value = '';
  let i = open + 1;
  let runStart = i;
  while (i < source.length) {
    const c = source[i]!;
    if (c === quote) return [value + source.slice(runStart, i), i + 1];
    if (c === '\\') {
      value += source.slice(runStart, i);
      const next = source[i + 1];
      if (next === 'u') {
        const hex = source.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new FilterError('\\u takes four hex digits', i, 2);
        value += String.fromCharCode(parseInt(hex, 16));
        i += 6;
      } else if (next !== undefined && ESCAPES[next] !== undefined) {
        value += ESCAPES[next];
        i += 2;
      } else {
        throw new FilterError(`Unknown escape \\${next ?? ''} in a string`, i, 2);
      }
      runStart = i;
      continue;
    }
    i++;
  }
  throw new FilterError('String is not closed', open, source.length - open);
}
