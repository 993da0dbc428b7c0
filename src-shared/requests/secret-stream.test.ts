import { describe, expect, it } from 'vitest';
import { concatBytes } from '../bytes/held-bytes';
import { chunkings, splitEvery } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';

const decodeUtf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
import { createStreamMasker } from './secret-stream';

const SECRETS = [
  { name: 'token', value: 'sk-CANARY-7f3a"é/x y' },
  { name: 'pw', value: 'hunter2-CANARY' },
];

function run(parts: readonly Uint8Array[], secrets = SECRETS): { out: Uint8Array; sizes: number[] } {
  const masker = createStreamMasker(secrets);
  if (!masker) throw new Error('no masker');
  const pieces = parts.map((p) => masker.push(p));
  pieces.push(masker.flush());
  return { out: concatBytes(pieces), sizes: pieces.map((p) => p.length) };
}

const STREAM = encodeUtf8(
  [
    'data: {"echo":"sk-CANARY-7f3a\\"é/x y"}\n\n', // JSON-escaped
    'data: {"url":"http://h/?t=sk-CANARY-7f3a%22%C3%A9%2Fx%20y"}\n\n', // percent-encoded
    'data: raw sk-CANARY-7f3a"é/x y and hunter2-CANARY\n\n', // as written
    'data: sk-CANARY-7f3 is only a prefix; s at the end\n\n',
  ].join(''),
);

describe('createStreamMasker: environment secrets masked in a byte stream, same length', () => {
  it('masks every form of every secret and keeps the length (byte offsets stay true)', () => {
    const { out } = run([STREAM]);
    const text = decodeUtf8(out);
    expect(text).not.toContain('CANARY-7f3a');
    expect(text).not.toContain('hunter2-CANARY');
    expect(out.length).toBe(STREAM.length);
    expect(text).toContain('{{token}}');
    expect(text).toContain('{{pw}}*****');
    expect(text).toContain('sk-CANARY-7f3 is only a prefix; s at the end');
  });

  it('gives the same bytes whatever the chunking: whole, byte by byte, seeded random splits (a secret split across chunks is masked)', () => {
    const whole = run([STREAM]).out;
    expect(run(splitEvery(STREAM, 1)).out).toEqual(whole);
    for (const { chunks } of chunkings(STREAM)) expect(run(chunks).out).toEqual(whole);
  });

  it('holds back only a tail that could begin a secret, and lets it go when it turns out not to', () => {
    const { sizes } = run([encodeUtf8('data: abc sk-CA'), encodeUtf8('T\n\n')]);
    expect(sizes).toEqual(['data: abc '.length, 'sk-CAT\n\n'.length, 0]);
    const ended = run([encodeUtf8('x hunter')]);
    expect(ended.sizes).toEqual([2, 6]);
  });

  it('masks a secret shorter than its label with * only, and is absent with no secret', () => {
    expect(decodeUtf8(run([encodeUtf8('a=XY;')], [{ name: 'long_name', value: 'XY' }]).out)).toBe('a=**;');
    expect(createStreamMasker([])).toBeNull();
    expect(createStreamMasker([{ name: 'e', value: '' }])).toBeNull();
  });
});
