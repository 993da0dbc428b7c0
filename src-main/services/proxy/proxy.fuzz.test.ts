import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../../../src-shared/sse/rechunk';
import { startLoopbackServer, type LoopbackServer } from '../connection/loopback-testing';
import { sendRaw, statusOf } from './raw-http-testing';
import { startReverseProxy, type ReverseProxy } from './reverse-proxy';

/**
 * Fuzzes what a client sends the proxy (docs/reliability.md, "Proxy fuzz"): seeded request
 * targets built from the pieces that name authorities, and seeded framings of the body
 * (Content-Length right, short, long, twice; chunked with bad sizes, extensions, trailers;
 * both at once; bare LF; folded headers; a second request smuggled after the first). Whatever
 * comes, the proxy answers or closes, never throws, never reaches another origin, and keeps
 * serving; a well-framed body reaches the target byte for byte.
 */

const SEED = 20261129;
const TARGETS = 160;
const FRAMINGS = 160;
const BATCH = 16;

let target: LoopbackServer;
let elsewhere: LoopbackServer;
let proxy: ReverseProxy;

beforeAll(async () => {
  target = await startLoopbackServer((_req, res) => void res.end('target'));
  elsewhere = await startLoopbackServer((_req, res) => void res.end('elsewhere'));
  proxy = await startReverseProxy({ target: new URL(target.url), port: 0 });
});
afterAll(async () => {
  await proxy.close();
  await target.close();
  await elsewhere.close();
});

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function requestTarget(random: Random): string {
  const other = `127.0.0.1:${elsewhere.port}`;
  const pieces = [
    '/',
    '//',
    '\\',
    '\\\\',
    '/\\',
    '@',
    ':',
    'user:pw@',
    other,
    `localhost:${elsewhere.port}`,
    `[::1]:${elsewhere.port}`,
    'a:99999',
    ':0',
    '%2F',
    '%5C',
    '%2e%2e',
    '..',
    '.',
    '?',
    '#',
    '%',
    '%zz',
    'x',
    'agent/run',
    ';',
    '\u00e9',
    'http:',
    'http://',
    '*',
  ];
  let out = random() < 0.85 ? pick(random, ['/', '//', '/\\', '\\', '///']) : '';
  const count = 1 + Math.floor(random() * 6);
  for (let i = 0; i < count; i++) out += pick(random, pieces);
  return out;
}

interface Framing {
  bytes: Buffer;
  /** The body the target must receive, when the framing is well-formed and nothing else is smuggled. */
  body: string | null;
}

function framing(random: Random, index: number): Framing {
  const body = 'x'.repeat(Math.floor(random() * 40)) + `{"n":${index}}`;
  const eol = random() < 0.1 ? '\n' : '\r\n';
  const head = [`POST /echo/${index} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer canary-${index}`];
  let wellFormed = eol === '\r\n';
  const kind = pick(random, [
    'length',
    'length-short',
    'length-long',
    'length-twice',
    'chunked',
    'chunked-bad-size',
    'chunked-ext',
    'chunked-trailer',
    'chunked-unfinished',
    'both',
    'te-obfuscated',
    'folded',
  ]);
  let payload = body;
  const chunked = (parts: string[], last = `0${eol}${eol}`): string =>
    parts.map((p) => `${p.length.toString(16)}${eol}${p}${eol}`).join('') + last;
  const split = (): string[] => [body.slice(0, body.length >> 1), body.slice(body.length >> 1)].filter((p) => p !== '');
  switch (kind) {
    case 'length':
      head.push(`Content-Length: ${body.length}`);
      break;
    case 'length-short':
      head.push(`Content-Length: ${body.length - 3}`);
      wellFormed = false;
      break;
    case 'length-long':
      head.push(`Content-Length: ${body.length + 5}`);
      wellFormed = false;
      break;
    case 'length-twice':
      head.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`);
      wellFormed = false;
      break;
    case 'chunked':
      head.push('Transfer-Encoding: chunked');
      payload = chunked(split());
      break;
    case 'chunked-bad-size':
      head.push('Transfer-Encoding: chunked');
      payload = `${pick(random, ['-1', 'zz', '0x10', 'ffffffffffffffffff', ' 5'])}${eol}${body}${eol}0${eol}${eol}`;
      wellFormed = false;
      break;
    case 'chunked-ext':
      head.push('Transfer-Encoding: chunked');
      payload =
        split()
          .map((p) => `${p.length.toString(16)};name=value${eol}${p}${eol}`)
          .join('') + `0${eol}${eol}`;
      break;
    case 'chunked-trailer':
      head.push('Transfer-Encoding: chunked');
      payload = chunked(split(), `0${eol}X-Trailer: 1${eol}${eol}`);
      break;
    case 'chunked-unfinished':
      head.push('Transfer-Encoding: chunked');
      payload = chunked(split(), '');
      wellFormed = false;
      break;
    case 'both':
      head.push(`Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
      payload = chunked(split());
      wellFormed = false;
      break;
    case 'te-obfuscated':
      head.push(
        pick(random, [
          'Transfer-Encoding: xchunked',
          'Transfer-Encoding : chunked',
          'Transfer-Encoding: chunked, identity',
        ]),
        `Content-Length: ${body.length}`,
      );
      wellFormed = false;
      break;
    case 'folded':
      head.push(`Content-Length: ${body.length}`, 'X-Folded: a', ' b');
      wellFormed = false;
      break;
  }
  // Sometimes a second request follows, naming another origin: it must not get there either.
  const smuggled =
    random() < 0.3
      ? `GET //127.0.0.1:${elsewhere.port}/smuggled HTTP/1.1${eol}Host: 127.0.0.1:${elsewhere.port}${eol}Connection: close${eol}${eol}`
      : '';
  head.push(smuggled === '' ? 'Connection: close' : 'Connection: keep-alive');
  const text = `${head.join(eol)}${eol}${eol}${payload}${smuggled}`;
  return { bytes: Buffer.from(text, 'latin1'), body: wellFormed && smuggled === '' ? body : null };
}

/** Runs `inputs` in batches of parallel connections; each answer must be HTTP or a close. */
async function runAll(inputs: (string | Buffer)[], timeoutMs: number): Promise<(number | null)[]> {
  const statuses: (number | null)[] = [];
  for (let at = 0; at < inputs.length; at += BATCH) {
    const answers = await Promise.all(
      inputs.slice(at, at + BATCH).map((input) => sendRaw(proxy.port, input, timeoutMs)),
    );
    for (const answer of answers) {
      if (answer !== '') expect(answer).toMatch(/^HTTP\/1\.1 \d{3} /);
      statuses.push(statusOf(answer));
    }
  }
  return statuses;
}

it(`proxy fuzz: ${TARGETS} seeded request targets never reach another origin nor stop the proxy`, async () => {
  const random = seededRandom(SEED);
  const targets = Array.from({ length: TARGETS }, () => requestTarget(random));
  const statuses = await runAll(
    targets.map((t) =>
      Buffer.from(
        `GET ${t} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer canary\r\nConnection: close\r\n\r\n`,
        'latin1',
      ),
    ),
    // Every one asks for the connection to close: no answer within this is a failure, not a slow machine.
    5000,
  );
  for (const [i, status] of statuses.entries()) expect([200, 400], JSON.stringify(targets[i])).toContain(status);
  expect(elsewhere.requests).toEqual([]);
  for (const received of target.requests) expect(received.url.startsWith('/')).toBe(true);
  // Both kinds came up: forwarded paths and refusals.
  expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(TARGETS / 5);
  expect(statuses.filter((s) => s === 400).length).toBeGreaterThan(TARGETS / 10);
  expect(statusOf(await sendRaw(proxy.port, 'GET /still-up HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))).toBe(
    200,
  );
});

it(`proxy fuzz: ${FRAMINGS} seeded request framings are forwarded intact or refused, and the proxy keeps serving`, async () => {
  const random = seededRandom(SEED + 1);
  const framings = Array.from({ length: FRAMINGS }, (_, i) => framing(random, i));
  // A body shorter than its length, or chunks never finished, waits for bytes that never come: cut short.
  await runAll(
    framings.map((f) => f.bytes),
    400,
  );
  expect(elsewhere.requests).toEqual([]);
  let checked = 0;
  for (const [i, f] of framings.entries()) {
    if (f.body === null) continue;
    const received = target.requests.find((r) => r.url === `/echo/${i}`);
    expect(received?.body, `input ${i}`).toBe(f.body);
    checked++;
  }
  expect(checked).toBeGreaterThan(FRAMINGS / 5);
  expect(statusOf(await sendRaw(proxy.port, 'GET /still-up HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n'))).toBe(
    200,
  );
});
