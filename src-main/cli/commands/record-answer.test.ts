import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../../services/connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../../services/demo-agent/index';
import { FINDING_EXAMPLES } from '../../services/recording/counting-session';
import { readFixture } from '../../testing/fixtures';
import { tinyFilesystem } from '../../testing/tiny-filesystem';
import { main } from '../main';
import { memoryIo, servingIo } from '../test-io';

const CANARY = 'canary-cli-8d2f';
let dir: string;
let agent: DemoAgent | undefined;
let server: LoopbackServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-cli-'));
});
afterEach(async () => {
  await agent?.close();
  await server?.close();
  agent = server = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const io = { ...memoryIo(), cwd: dir };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

async function recordFrontendTools(format: string): Promise<string> {
  agent ??= await startDemoAgent({ pace: 'fast' });
  const { code, err } = await run([
    'record',
    `${agent.url}/agent/run?format=${format}`,
    '-H',
    `Authorization: Bearer ${CANARY}`,
    '-d',
    JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }),
    '-o',
    `paused-${format}.ndjson`,
  ]);
  expect(code).toBe(0);
  expect(err).toMatch(/paused on awaiting_frontend_tools/);
  return join(dir, `paused-${format}.ndjson`);
}

describe('stream-inspector record', () => {
  it('shows a stream sent as text/plain as the answer it is, and decodes it with --any-content-type', async () => {
    const stream = readFixture('example_1.json.sse');
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(Buffer.from(stream));
    });
    const refused = await run(['record', `${server.url}/agent/run`, '-o', 'plain.recording']);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("(the CLI's record: --any-content-type)");
    const taken = await run(['record', `${server.url}/agent/run`, '--any-content-type', '-o', 'any.recording']);
    expect(taken.code).toBe(0);
    // Reopened, the recording decodes as it did live: it says the leg was decoded as a stream.
    const inspected = await run(['inspect', '--json', 'any.recording']);
    expect((JSON.parse(inspected.out) as { status: { kind: string } }).status.kind).toBe('done');
  });

  it('records a POST stream with headers and body, keeping the secret out of the file and the output', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end('data: {"type":"text","agent":"a","final":true,"delta":"hi"}\n\ndata: [DONE]\n\n');
    });
    const { code, out, err } = await run([
      'record',
      `${server.url}/agent/run?token=${CANARY}`,
      '-H',
      `X-Api-Key: ${CANARY}`,
      '-d',
      '{"user_prompt":"hi"}',
      '-o',
      'out.ndjson',
      '--json',
    ]);
    expect(code).toBe(0);
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: '{"user_prompt":"hi"}' });
    expect(server.requests[0]!.headers['x-api-key']).toBe(CANARY);
    expect(JSON.parse(out)).toMatchObject({ state: 'complete', envelopes: 2 });
    expect(err).toMatch(/Recording POST http:\/\/127\.0\.0\.1:\d+\/agent\/run\?token=\[redacted\]/);
    const file = await readFile(join(dir, 'out.ndjson'), 'utf8');
    expect(`${out}${err}${file}`).not.toContain(CANARY);
  });

  it('canary: secrets in JSON keys at any depth, a form body and a redirect Location reach neither the file nor the output', async () => {
    server = await startLoopbackServer((_req, res) => {
      res.writeHead(302, {
        Location: `https://login.example/cb?state=1&access_token=${CANARY}`,
        'Content-Type': 'text/plain',
      });
      res.end('moved');
    });
    const json = JSON.stringify({
      user_prompt: 'hi',
      openai_api_key: CANARY,
      anthropic_api_key: CANARY,
      tls: { private_key: CANARY },
      credentials: { key: CANARY },
      headers: { 'x-api-key': CANARY },
    });
    const first = await run(['record', `${server.url}/agent/run`, '-d', json, '-o', 'json.ndjson']);
    const form = await run([
      'record',
      `${server.url}/agent/run`,
      '-H',
      'Content-Type: application/x-www-form-urlencoded',
      '-d',
      `api_key=${CANARY}&password=${CANARY}&user=me`,
      '-o',
      'form.ndjson',
    ]);
    expect(server.requests.map((r) => r.body)).toEqual([json, `api_key=${CANARY}&password=${CANARY}&user=me`]);
    const files = `${await readFile(join(dir, 'json.ndjson'), 'utf8')}${await readFile(join(dir, 'form.ndjson'), 'utf8')}`;
    expect(files).toContain('user_prompt');
    expect(files).toContain('user=me');
    expect(files).toContain('login.example/cb?state=1&access_token=[redacted]');
    expect(`${first.out}${first.err}${form.out}${form.err}${files}`).not.toContain(CANARY);
  });

  it('prints the findings by rule, every one counted and the first five kept, as inspect of the recording finds them', async () => {
    const once = readFixture('multi_agent.json.sse');
    server = await startLoopbackServer(async (_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      // Played three times over: the runs after the first [DONE] are findings of their own, many times over.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => res.write(once, resolve));
      res.end();
    });
    const recorded = await run(['record', `${server.url}/agent/run`, '-o', 'many.recording', '--json']);
    type Finding = {
      rule: string;
      severity: string;
      count: number;
      first: string;
      examples: { message: string; at: object }[];
    };
    const summary = JSON.parse(recorded.out) as {
      envelopes: number;
      bytes: number;
      end: { kind: string };
      findings: Finding[];
      diagnostics: Record<string, number>;
    };
    expect(summary.bytes).toBe(3 * once.length);
    const afterDone = summary.findings.find((f) => f.rule === 'stream.after-done');
    expect(afterDone!.count).toBeGreaterThan(FINDING_EXAMPLES);
    expect(afterDone!.examples).toHaveLength(FINDING_EXAMPLES);
    expect(
      summary.findings.every(
        (f) => f.examples[0]!.message === f.first && f.examples.length === Math.min(f.count, FINDING_EXAMPLES),
      ),
    ).toBe(true);
    expect(recorded.err).toMatch(
      new RegExp(
        `Findings by rule[^\n]*\n(.*\n)*  ${afterDone!.severity} +${afterDone!.count}× stream\\.after-done  — `,
      ),
    );

    const inspected = JSON.parse((await run(['inspect', '--json', 'many.recording'])).out) as {
      envelopes: number;
      status: { kind: string };
      diagnostics: Omit<Finding, 'examples'>[];
    };
    expect(summary.envelopes).toBe(inspected.envelopes);
    expect(summary.end.kind).toBe(inspected.status.kind);
    expect(summary.findings.map(({ examples: _e, ...rule }) => rule)).toEqual(inspected.diagnostics);
    expect(Object.values(summary.diagnostics).reduce((a, b) => a + b)).toBe(
      inspected.diagnostics.reduce((sum, d) => sum + d.count, 0),
    );
  });

  it.each([
    ['SIGINT', 'The user stopped the stream.'],
    ['SIGTERM', 'The process was asked to end (SIGTERM), so the stream was stopped.'],
  ] as const)(
    'stops on %s with exit 0, says who stopped it, and closes the recording with its end',
    async (signal, why) => {
      server = await startLoopbackServer((_req, res) => {
        res.writeHead(200, SSE_HEADERS);
        const timer = setInterval(
          () => res.write('data: {"type":"text","agent":"a","final":false,"delta":"tick "}\n\n'),
          5,
        );
        res.on('close', () => clearInterval(timer));
      });
      const { io, interrupt } = servingIo();
      const cliIo = { ...io, cwd: dir };
      cliIo.stderr = (text) => {
        io.stderr(text);
        if (text.includes('streaming')) setTimeout(() => interrupt(signal), 100);
      };
      const code = await main(['record', `${server.url}/agent/run`, '-o', 'stopped.recording'], cliIo);
      expect(code).toBe(0);
      expect(io.err()).toContain(`stopped (${why}): `);
      expect(io.err()).toMatch(/^stopped \(.*\): [1-9]\d* envelopes?, /m);
      const records = (await readFile(join(dir, 'stopped.recording'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; reason?: string });
      expect(records.at(-1)).toMatchObject({ type: 'end', reason: 'aborted' });
    },
  );

  it('does not call a response that goes on past its Content-Length done, and exits 1', async () => {
    const raw = createNetServer((socket) => {
      socket.once('data', () =>
        socket.end(
          'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 14\r\n\r\ndata: [DONE]\n\ndata: {"late":1}\n\n',
        ),
      );
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    try {
      const { code, err } = await run([
        'record',
        `http://127.0.0.1:${(raw.address() as AddressInfo).port}/agent/run`,
        '-o',
        'overrun.recording',
      ]);
      expect(err).toMatch(
        /^truncated \(Part of the stream was lost: The server sent more bytes than the response's length/m,
      );
      expect(code).toBe(1);
    } finally {
      await new Promise((resolve) => raw.close(resolve));
    }
  });

  it('needs an output file and refuses to overwrite one', async () => {
    expect((await run(['record', 'http://127.0.0.1:9/x'])).code).toBe(2);
    await writeFile(join(dir, 'exists.ndjson'), 'x');
    const { code, err } = await run(['record', 'http://127.0.0.1:9/x', '-o', 'exists.ndjson']);
    expect(code).toBe(2);
    expect(err).toMatch(/exists/);
  });
});

describe('stream-inspector answer', () => {
  it('lists the pending tools of a paused recording when no results are given', async () => {
    const file = await recordFrontendTools('json');
    const { code, out } = await run(['answer', file]);
    expect(code).toBe(1);
    expect(out).toMatch(/user_confirm/);
    expect(out).toMatch(/Answer with --result/);
  });

  it.each(['json', 'xml', 'raw'])(
    'answers a recorded %s pause with the credentials given and writes the whole session',
    async (format) => {
      const file = await recordFrontendTools(format);
      const { code, err } = await run([
        'answer',
        file,
        '--yes',
        '-H',
        `Authorization: Bearer ${CANARY}`,
        '-o',
        `answered-${format}.ndjson`,
      ]);
      expect(err).toMatch(/Continuation \(leg 1\): /);
      expect(code).toBe(0);
      const saved = await readFile(join(dir, `answered-${format}.ndjson`), 'utf8');
      expect(saved).toContain('"type":"action"');
      expect(saved).not.toContain(CANARY);
      expect(err).not.toContain(CANARY);
      const reopened = await run(['answer', join(dir, `answered-${format}.ndjson`)]);
      expect(reopened.err).toMatch(/ ends done, not awaiting tools: there is nothing to answer\n$/);
    },
  );

  it('a recording that sent the results and ends before the continuation is not paused, and is never answered twice', async () => {
    const paused = readFixture('frontend_tools.json.sse');
    server = await startLoopbackServer((req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(req.url === '/agent/run' ? paused : 'data: [DONE]\n\n');
    });
    expect(
      (await run(['record', `${server.url}/agent/run`, '-d', '{"user_prompt":"x"}', '-o', 'sent.recording'])).err,
    ).toMatch(/paused on awaiting_frontend_tools/);
    const file = join(dir, 'sent.recording');
    // What the recorder writes when the results go out; the session was closed before the continuation began.
    const action = {
      kind: 'tool-results',
      at: 5000,
      leg: 0,
      body: '{"agent_uuid":"a","tool_results":[{"tool_use_id":"t","content":"yes"}]}',
      url: `${server.url}/agent/tool_results`,
    };
    await writeFile(file, `${JSON.stringify({ type: 'action', t: 5000, action })}\n`, { flag: 'a' });

    const answered = await run(['answer', 'sent.recording', '--yes']);
    expect(answered.err).toMatch(/already sent the tool results/);
    expect(answered.code).toBe(2);
    expect(server.requests.map((r) => r.url)).toEqual(['/agent/run']);
    const inspected = await run(['inspect', 'sent.recording', '--json']);
    expect(JSON.parse(inspected.out)).toMatchObject({
      status: { kind: 'truncated', reason: expect.stringMatching(/tool results were sent/) as unknown },
    });
    const checked = await run(['check', 'sent.recording', '--expect', 'status == "paused"']);
    expect(checked.code).toBe(1);
  });

  it('answers a run known only by URL and agent uuid', async () => {
    const file = await recordFrontendTools('json');
    const listing = (await run(['answer', file])).out;
    const uuid = /agent ([0-9a-f-]{36})/.exec(listing)![1]!;
    const toolId = /^\s+(\S+)\s+user_confirm/m.exec(listing)![1]!;
    const { code, err } = await run([
      'answer',
      '--url',
      `${agent!.url}/agent/run`,
      '--agent-uuid',
      uuid,
      '--result',
      `${toolId}=no`,
    ]);
    expect(code).toBe(0);
    expect(err).toMatch(/Continuation \(leg 0\)/);
  });

  it('explains its usage errors', async () => {
    expect((await run(['answer'])).err).toMatch(/expected a recording FILE, or --url RUN_URL with --agent-uuid UUID/);
    expect((await run(['answer', 'x.ndjson', '--result', 'novalue'])).err).toMatch(/--result takes TOOL_USE_ID=TEXT/);
  });
});

describe('stream-inspector record: the disk fills up', () => {
  it(
    'exits non-zero, says the recording failed and does not claim it was written',
    { timeout: 30_000 },
    async (context) => {
      const mountPoint = join(dir, 'tiny');
      await mkdir(mountPoint);
      const tiny = tinyFilesystem(mountPoint, 64);
      if (!tiny) return context.skip();
      try {
        // The whole stream, [DONE] included, arrives before the first flush: the disk fills while the records are written.
        server = await startLoopbackServer((_req, res) => {
          res.writeHead(200, SSE_HEADERS);
          res.end(
            `${Array.from({ length: 100 }, (_, i) => `data: {"type":"text","agent":"a","final":${i === 99},"delta":"${'y'.repeat(1000)}"}\n\n`).join('')}data: [DONE]\n\n`,
          );
        });
        const { code, out, err } = await run([
          'record',
          `${server.url}/agent/run`,
          '-o',
          'tiny/run.recording',
          '--json',
        ]);
        expect(JSON.parse(out)).toMatchObject({
          state: 'failed',
          failure: { message: expect.stringMatching(/stopped: ENOSPC/) as unknown },
        });
        expect(err).toMatch(/ENOSPC/);
        expect(err).not.toMatch(/^Recording written/m);
        expect(err).toMatch(/^The recording .*run\.recording is incomplete/m);
        expect(code).toBe(2);
      } finally {
        tiny.unmount();
      }
    },
  );
});
