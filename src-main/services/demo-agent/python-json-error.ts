/**
 * Where and why Python's `json.loads` rejects a text: FastAPI puts the position in the 422
 * body's `loc` and the message in `ctx.error`. Only called once JSON.parse has failed.
 */
export interface JsonDecodeError {
  position: number;
  reason: string;
}

class Failure extends Error {
  constructor(readonly error: JsonDecodeError) {
    super(error.reason);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
const LITERALS = ['null', 'true', 'false', 'NaN', 'Infinity', '-Infinity'];

export function pythonJsonError(text: string): JsonDecodeError {
  let i = 0;
  const fail = (position: number, reason: string): never => {
    throw new Failure({ position, reason });
  };
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  };
  const string = (): void => {
    const start = i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail(start, 'Unterminated string starting at');
      else if (c === '"') return void i++;
      else if (c === '\\') {
        const escape = text[i + 1];
        if (escape === undefined) fail(start, 'Unterminated string starting at');
        else if (escape === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i + 1, 'Invalid \\uXXXX escape');
          i += 6;
        } else if ('"\\/bfnrt'.includes(escape)) i += 2;
        else fail(i, 'Invalid \\escape');
      } else if (c < ' ') fail(i, 'Invalid control character at');
      else i++;
    }
  };
  const value = (): void => {
    const c = text[i];
    if (c === '"') return string();
    if (c === '{') return object();
    if (c === '[') return array();
    const literal = LITERALS.find((l) => text.startsWith(l, i));
    if (literal) return void (i += literal.length);
    NUMBER.lastIndex = i;
    const number = NUMBER.exec(text);
    if (!number) fail(i, 'Expecting value');
    i += number?.[0].length ?? 0;
  };
  const object = (): void => {
    i++;
    ws();
    if (text[i] === '}') return void i++;
    for (;;) {
      if (text[i] !== '"') fail(i, 'Expecting property name enclosed in double quotes');
      string();
      ws();
      if (text[i] !== ':') fail(i, "Expecting ':' delimiter");
      i++;
      ws();
      value();
      ws();
      if (text[i] === '}') return void i++;
      if (text[i] !== ',') fail(i, "Expecting ',' delimiter");
      i++;
      ws();
    }
  };
  const array = (): void => {
    i++;
    ws();
    if (text[i] === ']') return void i++;
    for (;;) {
      value();
      ws();
      if (text[i] === ']') return void i++;
      if (text[i] !== ',') fail(i, "Expecting ',' delimiter");
      i++;
      ws();
    }
  };
  try {
    ws();
    value();
    ws();
    if (i < text.length) fail(i, 'Extra data');
  } catch (failure) {
    if (failure instanceof Failure) return failure.error;
    throw failure;
  }
  return { position: text.length, reason: 'Expecting value' };
}
