import { isSpace } from './text-runs';

/**
 * An incremental JSON reader for tool calls written in the model's text (docs/inline.md, "JSON
 * tool calls"): one character at a time, its state kept between deltas, so a call that streams
 * in thousands of pieces is read once. Nesting is an explicit stack (never recursion over what
 * the model wrote), capped at MAX_JSON_DEPTH. It validates as it reads (strings and their
 * escapes, numbers, literals, commas and colons), so a value it accepts parses, and it reports
 * what a tool-call reader needs: keys, the start of values and string values near the top.
 */
export const MAX_JSON_DEPTH = 64;

/** Strings longer than this are validated but not kept (only short keys and names are needed). */
const MAX_KEPT_STRING = 256;

type Expect = 'value' | 'key' | 'colon' | 'next';

interface Frame {
  kind: '{' | '[';
  expect: Expect;
  empty: boolean;
}

/** What the reader tells its user; `depth` is the number of open containers (1 inside the top value). */
export interface JsonEvents {
  key(depth: number, key: string): void;
  /** A value starts inside a container at `depth` (its first character). */
  valueStart(depth: number, first: string): void;
  /** A string value at `depth` ended (undefined when longer than what is kept). */
  stringValue(depth: number, value: string | undefined): void;
  /** A container closed; `depth` is what remains open. */
  close(depth: number): void;
}

/** `more`: keep going; `done`: the top value closed with this character; otherwise why the character is not JSON here. */
export type JsonStep = 'more' | 'done' | { error: string };

export interface JsonScanner {
  step(c: string): JsonStep;
  /** What closes the value read so far, where a value can still be completed (for an incomplete tool call). */
  closers(): string;
  /** Read a new value (one reader serves every candidate of a block). */
  reset(): void;
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ESCAPES = '"\\/bfnrtu';
const LITERALS: Readonly<Record<string, string>> = { t: 'true', f: 'false', n: 'null' };

export function createJsonScanner(events: JsonEvents): JsonScanner {
  const stack: Frame[] = [];
  let token: 'none' | 'string' | 'number' | 'literal' = 'none';
  let isKey = false;
  /** The string (raw, escapes as written) or number being read; undefined when too long to keep. */
  let kept: string | undefined = '';
  let escape = 0; // 0: none, 1: after a backslash, 2..5: reading \u hex digits
  let literal = '';
  let literalAt = 0;
  let started = false;

  const fail = (why: string): JsonStep => ({ error: why });

  function valueDone(): JsonStep {
    const top = stack[stack.length - 1];
    if (!top) return 'done';
    top.expect = 'next';
    return 'more';
  }

  function keep(c: string): void {
    if (kept === undefined) return;
    kept = kept.length < MAX_KEPT_STRING ? kept + c : undefined;
  }

  function endString(): JsonStep {
    token = 'none';
    const depth = stack.length;
    let value: string | undefined;
    try {
      value = kept === undefined ? undefined : (JSON.parse(`"${kept}"`) as string);
    } catch {
      value = undefined;
    }
    if (isKey) {
      (stack[depth - 1] as Frame).expect = 'colon';
      events.key(depth, value ?? '');
      return 'more';
    }
    events.stringValue(depth, value);
    return valueDone();
  }

  function readString(c: string): JsonStep {
    if (escape === 1) {
      if (!ESCAPES.includes(c)) return fail(`\\${c} is not a JSON escape`);
      escape = c === 'u' ? 2 : 0;
    } else if (escape >= 2) {
      if (!/[0-9a-fA-F]/.test(c)) return fail('\\u needs four hex digits');
      escape = escape === 5 ? 0 : escape + 1;
    } else if (c === '\\') {
      escape = 1;
    } else if (c === '"') {
      return endString();
    } else if (c < ' ') {
      return fail('a control character (a raw line break?) inside a string');
    }
    keep(c);
    return 'more';
  }

  function open(kind: '{' | '['): JsonStep {
    if (stack.length >= MAX_JSON_DEPTH) return fail(`nesting deeper than ${MAX_JSON_DEPTH}`);
    stack.push({ kind, expect: kind === '{' ? 'key' : 'value', empty: true });
    return 'more';
  }

  function close(c: string): JsonStep {
    const top = stack[stack.length - 1] as Frame;
    if ((c === '}') !== (top.kind === '{')) return fail(`${c} closes a ${top.kind}`);
    stack.pop();
    events.close(stack.length);
    return valueDone();
  }

  function startValue(c: string): JsonStep {
    const depth = stack.length;
    if (c === '{' || c === '[') {
      events.valueStart(depth, c);
      return open(c);
    }
    if (c === '"') {
      events.valueStart(depth, c);
      token = 'string';
      isKey = false;
      kept = '';
      return 'more';
    }
    if (c === '-' || isDigit(c)) {
      events.valueStart(depth, c);
      token = 'number';
      kept = c;
      return 'more';
    }
    const word = LITERALS[c];
    if (word) {
      events.valueStart(depth, c);
      token = 'literal';
      literal = word;
      literalAt = 1;
      return 'more';
    }
    return fail(`${JSON.stringify(c)} cannot start a value`);
  }

  function structural(c: string): JsonStep {
    if (!started) {
      if (c !== '{' && c !== '[') return fail('a tool call starts with { or [');
      started = true;
      return open(c);
    }
    const top = stack[stack.length - 1];
    if (!top) return fail('text after the end of the value');
    if (isSpace(c)) return 'more';
    switch (top.expect) {
      case 'key':
        if (c === '}' && top.empty) return close(c);
        if (c !== '"') return fail(`expected a key, found ${JSON.stringify(c)}`);
        top.empty = false;
        token = 'string';
        isKey = true;
        kept = '';
        return 'more';
      case 'colon':
        if (c !== ':') return fail(`expected ":", found ${JSON.stringify(c)}`);
        top.expect = 'value';
        return 'more';
      case 'value':
        if (c === ']' && top.kind === '[' && top.empty) return close(c);
        top.empty = false;
        return startValue(c);
      case 'next':
        if (c === ',') {
          top.expect = top.kind === '{' ? 'key' : 'value';
          top.empty = false;
          return 'more';
        }
        if (c === '}' || c === ']') return close(c);
        return fail(
          `expected "," or the end of the ${top.kind === '{' ? 'object' : 'array'}, found ${JSON.stringify(c)}`,
        );
    }
  }

  return {
    reset() {
      stack.length = 0;
      token = 'none';
      kept = '';
      escape = 0;
      started = false;
    },
    step(c) {
      if (token === 'string') return readString(c);
      if (token === 'literal') {
        if (c !== literal.charAt(literalAt)) return fail(`expected ${literal}`);
        literalAt++;
        if (literalAt < literal.length) return 'more';
        token = 'none';
        return valueDone();
      }
      if (token === 'number') {
        if (isDigit(c) || c === '.' || c === 'e' || c === 'E' || c === '+' || c === '-') {
          keep(c);
          return 'more';
        }
        token = 'none';
        if (kept === undefined || !NUMBER.test(kept)) return fail('a malformed number');
        const after = valueDone();
        if (after !== 'more') return after;
      }
      return structural(c);
    },
    closers() {
      let tail = '';
      if (token === 'string') tail += escape === 0 ? '"' : '';
      if (token === 'string' && isKey) tail += ':null';
      const top = stack[stack.length - 1];
      if (token === 'none' && top?.expect === 'colon') tail += ':null';
      if (token === 'none' && top?.expect === 'value' && !top.empty) tail += 'null';
      for (let i = stack.length - 1; i >= 0; i--) tail += (stack[i] as Frame).kind === '{' ? '}' : ']';
      return tail;
    },
  };
}
