import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportKind, DownloadKind } from '../../src-shared/contract/payloads';
import { main } from '../cli/main';
import { memoryIo, servingIo } from '../cli/test-io';
import { createDefaultSessionService } from '../hosts/default-service';
import { sleep, startLoopbackServer, type LoopbackServer } from '../services/connection/loopback-testing';
import { readAll } from '../services/demo-agent/testing/http';
import { recordEvents, settled, waitFor, type EventLog } from '../services/sessions/service-testing';
import type { SessionService } from '../services/sessions/session-service';

/**
 * The secret canary table (docs/security.md, "Secrets"; docs/reliability.md): canary secrets
 * are planted wherever a user's credential goes — an environment secret the server echoes
 * back, request header values, a query token, body keys, response headers, a redirect page's
 * token — through every way a stream reaches the inspector (a live session, the `record`
 * command, the recording proxy, the proxy command), and no artifact may hold one: recordings
 * and spool files, every export and download, HAR, what the page receives (session detail,
 * rows, envelopes, frames, blocks, raw bytes, findings, statistics, events), error events,
 * CLI output, JUnit.
 */

/** An environment secret, sent as {{token}} and echoed back by the server (in the stream, split across two chunks; in a header; in an error body). */
const ENV = 'env-CANARY-91ab/+x';
const CANARIES = {
  env: ENV,
  requestHeader: 'hdr-CANARY-4c2e',
  queryToken: 'query-CANARY-7d10',
  bodyKey: 'body-CANARY-aa31',
  lenientBodyKey: 'lenient-CANARY-5b5b',
  bigBodyKey: 'big-CANARY-0f0f',
  responseHeader: 'resp-CANARY-6e6e',
  redirectToken: 'redirect-CANARY-2f2f',
} as const;
type Canary = keyof typeof CANARIES;

/**
 * Artifacts that hold a canary on purpose, with why. The bytes a server sent are evidence and
 * are kept as received, except environment secrets: a rejected response's body (the redirect
 * page) stays in the recording, the raw bytes, the HAR and the envelope export (its leg's head
 * line) as it came; what is shown of it as
 * the failure (the page, the CLI) is redacted.
 */
const KEPT_ON_PURPOSE: Partial<Record<Canary, RegExp>> = {
  redirectToken:
    /^(cli record redirect: recording file|live redirect: (spool|saved recording|raw bytes|(download|export) (har|envelopes-ndjson)|download recording))$/,
};

const EXPORT_KINDS: ExportKind[] = ['envelopes-ndjson', 'blocks-json', 'raw-sse', 'har', 'transcript-md'];
const DOWNLOAD_KINDS: DownloadKind[] = ['recording', ...EXPORT_KINDS];

let dir: string;
let server: LoopbackServer;
let service: SessionService;
let events: EventLog;
const artifacts = new Map<string, string>();

const keep = (name: string, value: unknown): void =>
  void artifacts.set(name, typeof value === 'string' ? value : JSON.stringify(value));

/** Everything the page can fetch about a session, and what the service writes for it. */
async function collectSession(label: string, id: string): Promise<void> {
  const detail = await service.getSession({ sessionId: id });
  keep(`${label}: session detail`, detail);
  keep(`${label}: rows`, await service.getRows({ sessionId: id, start: 0, count: 10_000 }));
  const rows = (await service.getRows({ sessionId: id, start: 0, count: 10_000 })).rows;
  keep(`${label}: envelopes`, await Promise.all(rows.map((_row, seq) => service.getEnvelope({ sessionId: id, seq }))));
  const blocks = await service.getBlocks({ sessionId: id });
  keep(`${label}: blocks`, blocks);
  keep(
    `${label}: block details`,
    await Promise.all(blocks.map((_b, block) => service.getBlock({ sessionId: id, block }).catch(() => null))),
  );
  for (const leg of detail.legs) {
    keep(
      `${label}: frames of leg ${leg.leg}`,
      await Promise.all(
        Array.from({ length: leg.frames }, (_f, seq) => service.getFrame({ sessionId: id, leg: leg.leg, seq })),
      ),
    );
    const raw = await service.getRawBytes({ sessionId: id, leg: leg.leg, byteStart: 0, byteEnd: leg.bytes });
    keep(`${label}: raw bytes`, Buffer.from(raw.base64, 'base64').toString('utf8'));
  }
  keep(`${label}: findings`, await service.getDiagnostics({ sessionId: id }));
  keep(`${label}: statistics`, await service.getStats({ sessionId: id }));
  await service.saveRecording({ sessionId: id, path: join(dir, `${id}.saved.recording`) });
  keep(`${label}: saved recording`, await readFile(join(dir, `${id}.saved.recording`), 'utf8'));
  for (const kind of EXPORT_KINDS) {
    await service.exportSession({ sessionId: id, kind, path: join(dir, `${id}.${kind}`) });
    keep(`${label}: export ${kind}`, await readFile(join(dir, `${id}.${kind}`), 'utf8'));
  }
  for (const kind of DOWNLOAD_KINDS)
    keep(
      `${label}: download ${kind}`,
      Buffer.from((await service.downloadSession({ sessionId: id, kind })).base64, 'base64').toString('utf8'),
    );
  const spool = join(dir, 'spool', `${id}.recording`);
  const spooled = await readFile(spool, 'utf8').catch(() => null);
  if (spooled !== null) keep(`${label}: spool`, spooled);
}

async function cli(label: string, args: string[]): Promise<void> {
  const io = { ...memoryIo(), cwd: dir };
  await main(args, io);
  keep(`${label}: stdout`, io.out());
  keep(`${label}: stderr`, io.err());
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-canaries-'));
  server = await startLoopbackServer(async (req, res) => {
    const echo = req.headers['x-echo-me'];
    const path = req.url ?? '/';
    if (path.startsWith('/redirect')) {
      res.writeHead(302, { Location: `/cb?token=${CANARIES.redirectToken}`, 'Content-Type': 'text/html' });
      res.end(`<p>Moved to <a href="/cb?token=${CANARIES.redirectToken}">/cb?token=${CANARIES.redirectToken}</a></p>`);
      return;
    }
    if (path.startsWith('/unauthorized')) {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: `the key ${String(echo)} is not valid` }));
      return;
    }
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Set-Cookie': `sid=${CANARIES.responseHeader}; HttpOnly`,
      'X-Api-Key': CANARIES.responseHeader,
      ...(typeof echo === 'string' ? { 'X-Echo': echo } : {}),
    });
    const said = typeof echo === 'string' ? echo : 'nothing';
    // The echoed secret is split across two chunks: masking must see it whole.
    res.write(`data: {"type":"text","agent":"main","final":false,"delta":"you sent ${said.slice(0, 6)}`);
    await sleep(20);
    res.write(`${said.slice(6)} and ${JSON.stringify(said).slice(1, -1)}, ${encodeURIComponent(said)}"}\n\n`);
    await sleep(5);
    res.end('data: {"type":"text","agent":"main","final":true,"delta":""}\n\ndata: [DONE]\n\n');
  });
  service = createDefaultSessionService({ spoolDir: join(dir, 'spool') });
  events = recordEvents(service);

  // A live session sent with an environment secret (what prepareConnect hands the service), typed credentials besides.
  const live = await service.connect({
    url: `${server.url}/agent/run?access_token=${CANARIES.queryToken}`,
    method: 'POST',
    headers: [
      ['Authorization', `Bearer ${ENV}`],
      ['X-Echo-Me', ENV],
      ['X-Api-Key', CANARIES.requestHeader],
      ['Cookie', `sid=${CANARIES.requestHeader}`],
    ],
    body: { kind: 'json', text: JSON.stringify({ user_prompt: 'hi', ref: ENV, api_key: CANARIES.bodyKey }) },
    secretValues: [{ name: 'token', value: ENV }],
  });
  await settled(service, live.id);
  await collectSession('live', live.id);
  // A body that is not strict JSON, recorded to a file the user chose.
  const lenient = await service.connect({
    url: `${server.url}/agent/run`,
    method: 'POST',
    headers: [['Content-Type', 'application/json']],
    body: { kind: 'raw', text: `{"user_prompt": "hi", "api_key": "${CANARIES.lenientBodyKey}",}` },
    recordTo: join(dir, 'lenient.recording'),
  });
  await settled(service, lenient.id);
  await collectSession('live lenient body', lenient.id);
  keep('live lenient body: recording', await readFile(join(dir, 'lenient.recording'), 'utf8'));
  // A server that quotes the secret in its error, and a redirect whose page names a token.
  for (const [label, path] of [
    ['live unauthorized', '/unauthorized'],
    ['live redirect', '/redirect'],
  ] as const) {
    const failed = await service.connect({
      url: `${server.url}${path}`,
      method: 'GET',
      headers: [['X-Echo-Me', ENV]],
      secretValues: [{ name: 'token', value: ENV }],
    });
    await settled(service, failed.id);
    await collectSession(label, failed.id);
  }

  // The recording proxy, in the app: typed credentials, a lenient body and one over the size it keeps.
  const proxy = await service.startProxy({ port: 0, target: server.url, recordDir: join(dir, 'proxied') });
  const big = JSON.stringify({ api_key: CANARIES.bigBodyKey, pad: 'x'.repeat(1_200_000) });
  for (const body of [`{"api_key": "${CANARIES.lenientBodyKey}",}`, big]) {
    const response = await fetch(`${proxy.url}/agent/run?access_token=${CANARIES.queryToken}`, {
      method: 'POST',
      headers: { 'x-api-key': CANARIES.requestHeader, 'content-type': 'application/json' },
      body,
    });
    await readAll(response);
  }
  const proxied = await waitFor(async () => {
    const state = await service.getProxy();
    const ids = state?.exchanges.map((e) => e.sessionId).filter((id): id is string => id !== undefined) ?? [];
    return ids.length === 2 ? ids : undefined;
  }, 'two proxied sessions');
  keep('proxy: exchange list', await service.getProxy());
  for (const id of proxied) {
    await settled(service, id);
    await collectSession(`proxy ${id}`, id);
  }
  await service.stopProxy();
  for (const file of await waitFor(
    async () => ((await readdir(join(dir, 'proxied'))).length === 2 ? readdir(join(dir, 'proxied')) : undefined),
    'two proxy recordings',
  )) {
    keep(`proxy: recording ${file}`, await readFile(join(dir, 'proxied', file), 'utf8'));
  }
  keep('events: errors', events.errors);
  keep('events: batches', events.batches);
  keep('events: session lists', events.lists);
  keep('events: live statuses', events.statuses);

  // The command line: record (a stream, a redirect), inspect, check with JUnit, the proxy command.
  // `;` separates parameters as `&` does: the token after it is a parameter too.
  await cli('cli record', [
    'record',
    `${server.url}/agent/run?a=1;token=${CANARIES.queryToken}`,
    '-H',
    `X-Api-Key: ${CANARIES.requestHeader}`,
    '-H',
    `Authorization: Bearer ${CANARIES.requestHeader}`,
    '-d',
    JSON.stringify({ api_key: CANARIES.bodyKey }),
    '-o',
    'cli.recording',
    '--json',
  ]);
  keep('cli record: recording file', await readFile(join(dir, 'cli.recording'), 'utf8'));
  await cli('cli record redirect', [
    'record',
    `${server.url}/redirect?token=${CANARIES.queryToken}`,
    '-o',
    'redirect.recording',
  ]);
  keep('cli record redirect: recording file', await readFile(join(dir, 'redirect.recording'), 'utf8'));
  await cli('cli inspect', ['inspect', 'cli.recording', '--json']);
  await cli('cli check', [
    'check',
    'cli.recording',
    'lenient.recording',
    '--expect',
    'status == "done"',
    '--junit',
    'check.xml',
  ]);
  keep('cli check: JUnit', await readFile(join(dir, 'check.xml'), 'utf8'));
  const serving = servingIo();
  serving.io.cwd = dir;
  const exit = main(['proxy', '--listen', '0', '--target', server.url, '--record-dir', 'cli-proxied'], serving.io);
  await serving.ready;
  const url = /Proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(serving.io.out())![1]!;
  await readAll(
    await fetch(`${url}/agent/run?a=1;token=${CANARIES.queryToken}`, {
      method: 'POST',
      headers: { 'x-api-key': CANARIES.requestHeader },
      body: `{"api_key": "${CANARIES.lenientBodyKey}",}`,
    }),
  );
  await waitFor(() => /→ +200/.test(serving.io.out()), 'the proxy line');
  serving.interrupt();
  await exit;
  keep('cli proxy: stdout', serving.io.out());
  keep('cli proxy: stderr', serving.io.err());
  for (const file of await readdir(join(dir, 'cli-proxied')))
    keep(`cli proxy: recording ${file}`, await readFile(join(dir, 'cli-proxied', file), 'utf8'));
}, 60_000);

afterAll(async () => {
  await service?.dispose();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the secret canary table: no canary in any artifact', () => {
  it('collected every kind of artifact', () => {
    const names = [...artifacts.keys()].join('\n');
    for (const kind of [
      'spool',
      'saved recording',
      'export har',
      'export raw-sse',
      'export envelopes-ndjson',
      'export blocks-json',
      'export transcript-md',
      'download recording',
      'raw bytes',
      'envelopes',
      'blocks',
      'session detail',
      'events: errors',
      'proxy: exchange list',
      'proxy: recording',
      'cli record: stdout',
      'cli record redirect: stdout',
      'cli check: JUnit',
      'cli proxy: stdout',
    ]) {
      expect(names).toContain(kind);
    }
    // The planted values really went out: the server saw each of them.
    const sent = JSON.stringify(server.requests);
    for (const canary of Object.values(CANARIES))
      if (canary !== CANARIES.responseHeader && canary !== CANARIES.redirectToken)
        expect(sent).toContain(canary.slice(0, 10));
  });

  it.each(Object.keys(CANARIES) as Canary[])('%s appears in no artifact', (canary) => {
    const value = CANARIES[canary];
    const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
    const leaks = [...artifacts]
      .filter(([name, text]) => forms.some((form) => text.includes(form)) && !KEPT_ON_PURPOSE[canary]?.test(name))
      .map(([name]) => name);
    expect(leaks).toEqual([]);
  });

  it('the environment secret echoed in the stream is masked in place, same length, as {{token}}', () => {
    const raw = artifacts.get('live: raw bytes') ?? '';
    expect(raw).toContain('you sent {{token}}*********');
    expect(artifacts.get('live: session detail')).toContain('{{token}}');
  });

  it('a proxied body over the size the proxy keeps is withheld, saying so', () => {
    const recordings = [...artifacts]
      .filter(([name]) => name.startsWith('proxy: recording'))
      .map(([, text]) => text)
      .join('\n');
    expect(recordings).toMatch(/\[body withheld: \d+ bytes, over the 1048576 bytes the proxy keeps/);
  });
});
