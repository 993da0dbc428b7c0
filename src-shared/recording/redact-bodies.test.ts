import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/chunking';
import { REDACTED, redactBody, redactParams, redactUrl } from './redact';

/**
 * Redaction of bodies that are not strict JSON or a form (docs/security.md, "Secrets"): every
 * shape a recorded request body takes in practice, each with a canary that must not survive,
 * and a seeded fuzz over generated bodies of every shape.
 */
const CANARY = 'CANARY-5e3c9d71';

/** [shape, body, content type, text that must survive (non-secret values are kept)] */
const SHAPES: [string, string, string, string][] = [
  ['JSON with a trailing comma', `{"user_prompt": "hi", "api_key": "${CANARY}",}`, 'application/json', 'hi'],
  ['JSON with NaN', `{"token": NaN, "n": NaN, "password": "${CANARY}"}`, 'application/json', '"n": NaN'],
  ['JSON with a secret after NaN', `{"n": NaN, "access_token": "${CANARY}"}`, 'application/json', 'NaN'],
  ['JSON with a BOM', `\uFEFF{"client_secret": "${CANARY}", "model": "m1"}`, 'application/json', 'm1'],
  [
    'NDJSON',
    `{"a":1,"token":"${CANARY}"}\n{"a":2,"credentials":{"user":"me","password":"${CANARY}"}}\n`,
    'application/x-ndjson',
    '"a":2',
  ],
  ['JS-object style', `{apiKey: '${CANARY}', model: 'm1'}`, 'text/plain', 'm1'],
  ['JS-object style, unquoted value', `{ secret: ${CANARY}, model: m1 }`, 'text/plain', 'm1'],
  ['YAML', `model: m1\napi_key: ${CANARY}\nprompt: hi\n`, 'application/yaml', 'prompt: hi'],
  [
    'XML element',
    `<request><model>m1</model><api_key>${CANARY}</api_key></request>`,
    'application/xml',
    '<model>m1</model>',
  ],
  ['XML attribute', `<auth token="${CANARY}" user="me"/>`, 'application/xml', 'user="me"'],
  [
    'multipart',
    `--b0\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhi\r\n--b0\r\nContent-Disposition: form-data; name="api_key"\r\nContent-Type: text/plain\r\n\r\n${CANARY}\r\n--b0--\r\n`,
    'multipart/form-data; boundary=b0',
    'hi',
  ],
  ['header lines', `Host: h\r\nAuthorisation: Bearer ${CANARY}\r\nAccept: */*\r\n`, 'text/plain', 'Accept: */*'],
  [
    'a URL inside a JSON string value',
    `{"callback": "https://h/cb?state=1&access_token=${CANARY}", "n": 1}`,
    'application/json',
    'state=1',
  ],
  [
    'a ;-separated query inside a JSON string value',
    `{"url": "https://h/x?a=1;token=${CANARY}"}`,
    'application/json',
    'a=1',
  ],
  ['user-info of a URL inside a value', `{"url": "https://me:${CANARY}@h/x"}`, 'application/json', 'h/x'],
  [
    'a bearer credential inside a string value',
    `{"note": "curl -H 'X: Bearer ${CANARY}' h"}`,
    'application/json',
    'curl',
  ],
  ['an Authorization header inside a string value', `{"raw": "Authorization: ${CANARY}"}`, 'application/json', '"raw"'],
  [
    'JSON escaped inside a JSON string',
    JSON.stringify({ payload: JSON.stringify({ token: CANARY, model: 'm1' }) }),
    'application/json',
    'm1',
  ],
  [
    'JSON cut short inside the secret',
    `{"messages": [{"role": "user"}], "api_key": "${CANARY}`,
    'application/json',
    'role',
  ],
  ['JSON cut short inside an escaped string', `{"p": "{\\"token\\":\\"${CANARY}`, 'application/json', '"p"'],
  ['form with ; separators', `a=1;password=${CANARY}`, 'application/x-www-form-urlencoded', 'a=1'],
  [
    'a lenient JSON array under a secret name',
    `{"api_keys": ["${CANARY}", "${CANARY}"],}`,
    'application/json',
    'api_keys',
  ],
  ['key = value with spaces', `password = ${CANARY}\nuser = me`, 'text/plain', 'user = me'],
];

describe('redactBody: best-effort redaction by key name in any text body', () => {
  it.each(SHAPES)('%s: the canary is gone, the rest is kept', (_shape, body, contentType, kept) => {
    const redacted = redactBody(body, contentType) ?? '';
    expect(redacted).not.toContain(CANARY);
    expect(redacted).toContain(REDACTED);
    expect(redacted).toContain(kept);
  });

  it('keeps strict JSON valid when it redacts inside its string values', () => {
    for (const [, body] of SHAPES.filter(([shape]) => shape.includes('inside'))) {
      let valid = true;
      try {
        JSON.parse(body);
      } catch {
        valid = false;
      }
      if (valid) expect(() => JSON.parse(redactBody(body, 'application/json') ?? '') as unknown).not.toThrow();
    }
  });

  it('withholds a body that is not text and says so', () => {
    const binary = `PK\u0003\u0004\u0000\u0000${CANARY}\uFFFD`;
    const redacted = redactBody(binary) ?? '';
    expect(redacted).not.toContain(CANARY);
    expect(redacted).toMatch(/^\[body withheld: \d+ characters that are not text/);
  });

  it('keeps a text without a secret byte for byte', () => {
    for (const body of [
      '{"max_tokens": 5, "author": "me",}',
      'model: m1\nprompt: my token is here\n',
      '<a href="x?page=2">t</a>',
      'Bearer tokens are short',
    ]) {
      expect(redactBody(body)).toBe(body);
    }
  });

  it('takes linear time on a long run of name characters and on long values', () => {
    // A quadratic scan would take minutes on these; a linear one, milliseconds.
    for (const body of ['a'.repeat(2_000_000), `{"x": "${'token='.repeat(200_000)}"}`, `${'key:'.repeat(300_000)}`]) {
      const started = performance.now();
      redactBody(body);
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });
});

describe('redactParams and redactUrl: ; separates parameters as & does', () => {
  it('a=1;token=x', () => {
    expect(redactParams(`a=1;token=${CANARY}&b=2`)).toBe(`a=1;token=${REDACTED}&b=2`);
    expect(redactUrl(`http://h/x?a=1;token=${CANARY}`)).toBe(`http://h/x?a=1;token=${REDACTED}`);
  });
});

// ---------------------------------------------------------------------------------------
// Fuzz: generated bodies of every shape, secrets under every secret name at random depths.

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const SECRET_KEYS = [
  'api_key',
  'apiKey',
  'token',
  'access_token',
  'password',
  'client_secret',
  'Authorization',
  'authorisation',
  'x-api-key',
  'privateKey',
  'session_id',
  'cookie',
];
const PLAIN_KEYS = ['model', 'prompt', 'max_tokens', 'author', 'user', 'stream', 'n'];
const PLAIN_VALUES = ['m1', 'hello world', '42', 'true', 'a, b', 'x=y'];

interface Field {
  key: string;
  value: string;
  secret: boolean;
}

function fields(random: Random, canary: string): Field[] {
  const out: Field[] = [];
  for (let n = 1 + Math.floor(random() * 6); n > 0; n--) {
    // Plain keys are numbered: a repeated key would overwrite the value the test looks for.
    out.push(
      random() < 0.4
        ? { key: pick(random, SECRET_KEYS), value: canary, secret: true }
        : { key: `${pick(random, PLAIN_KEYS)}${n}`, value: pick(random, PLAIN_VALUES), secret: false },
    );
  }
  out.push({ key: pick(random, SECRET_KEYS), value: canary, secret: true });
  return out.sort(() => random() - 0.5);
}

/** One body shape: fields written the way that shape writes them, nested a random depth where the shape nests. */
const WRITERS: Record<string, (random: Random, f: Field[]) => string> = {
  strictJson: (random, f) => {
    const depth = Math.floor(random() * 4);
    const inner = JSON.stringify(
      Object.fromEntries(f.map((x) => [x.key, x.value])),
      null,
      random() < 0.5 ? 2 : undefined,
    );
    return `${'{"wrap":['.repeat(depth)}${inner}${']}'.repeat(depth)}`;
  },
  trailingComma: (_random, f) => `{${f.map((x) => `"${x.key}": "${x.value}",`).join(' ')}}`,
  jsObject: (random, f) =>
    `{${f.map((x) => `${/^[A-Za-z_]\w*$/.test(x.key) ? x.key : `'${x.key}'`}: ${random() < 0.5 ? `'${x.value}'` : JSON.stringify(x.value)}`).join(', ')}}`,
  ndjson: (_random, f) => f.map((x) => JSON.stringify({ [x.key]: x.value })).join('\n'),
  yaml: (_random, f) => f.map((x) => `${x.key}: ${x.value}`).join('\n'),
  xml: (_random, f) => `<r>${f.map((x) => `<${x.key}>${x.value}</${x.key}>`).join('')}</r>`,
  form: (random, f) => f.map((x) => `${x.key}=${encodeURIComponent(x.value)}`).join(random() < 0.5 ? '&' : ';'),
  multipart: (_random, f) =>
    `${f.map((x) => `--B\r\nContent-Disposition: form-data; name="${x.key}"\r\n\r\n${x.value}\r\n`).join('')}--B--\r\n`,
  urlInJson: (_random, f) =>
    JSON.stringify({ url: `https://h/p?${f.map((x) => `${x.key}=${encodeURIComponent(x.value)}`).join('&')}` }),
  escapedJson: (_random, f) =>
    JSON.stringify({ payload: JSON.stringify(Object.fromEntries(f.map((x) => [x.key, x.value]))) }),
};

describe('redactBody fuzz: generated bodies of every shape', () => {
  it('never throws, never lets a canary through, keeps every plain value (seeded; a failure names its seed)', () => {
    const random = seededRandom(20_260_329);
    for (let input = 0; input < 3000; input++) {
      const canary = `CANARY${input}x${Math.floor(random() * 1e9).toString(36)}`;
      const shape = pick(random, Object.keys(WRITERS));
      const f = fields(random, canary);
      const body = (WRITERS[shape] as (r: Random, f: Field[]) => string)(random, f);
      // Cut short sometimes, as a proxy's size cap or a torn file does.
      const cut = random() < 0.2 ? body.slice(0, body.indexOf(canary) + Math.floor(random() * canary.length)) : body;
      const redacted = redactBody(cut, shape === 'form' ? 'application/x-www-form-urlencoded' : '') ?? '';
      const context = `input ${input}, shape ${shape}: ${cut}`;
      expect(redacted.includes(canary) || redacted.includes(canary.slice(0, 12)), context).toBe(false);
      if (cut === body && shape !== 'form' && shape !== 'urlInJson') {
        for (const plain of f.filter((x) => !x.secret && x.value === 'm1'))
          expect(redacted, context).toContain(plain.value);
      }
    }
  });
});
