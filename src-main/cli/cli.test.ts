import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startLoopbackServer } from '../services/connection/loopback-testing';
import { createRecorder } from '../services/recording/recorder';
import { fixturePath, providerFixturePath, readFixture } from '../testing/fixtures';
import { main } from './main';
import { memoryIo } from './test-io';

const run = async (args: string[], stdin?: string | Uint8Array) => {
  const io = memoryIo(stdin);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
};

const lines = (text: string): unknown[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);

describe('stream-inspector frames', () => {
  it('prints each event as an EventSource dispatches it, then the end state', async () => {
    const { code, out } = await run(
      ['frames', '--json', '-'],
      'id: 7\ndata: a\ndata: b\n\nevent: ping\ndata: c\n\nretry: 1500\ndata: tail',
    );
    expect(code).toBe(0);
    expect(lines(out)).toEqual([
      { file: '-', event: 'message', data: 'a\nb', id: '7' },
      { file: '-', event: 'ping', data: 'c', id: '7' },
      { file: '-', end: true, lastEventId: '7', retry: 1500 },
    ]);
  });

  it.each(['1', '7', 'random:1', 'random:99'])('gives the same output with --rechunk %s', async (rechunk) => {
    const file = fixturePath('xml_stream_examples.captured.xml.sse');
    const whole = await run(['frames', '--json', file]);
    const rechunked = await run(['frames', '--json', '--rechunk', rechunk, file]);
    expect(rechunked.out).toBe(whole.out);
    expect(lines(whole.out)).toHaveLength(146 + 1);
  });

  it('prints a line-framed stream (the AI SDK v4 data stream) as its lines, the same at every chunking', async () => {
    const stream = '0:"Hel"\n0:"lo"\nd:{"finishReason":"stop"}\n';
    const { code, out } = await run(['frames', '--json', '--rechunk', '1', '-'], stream);
    expect(code).toBe(0);
    expect(lines(out)).toEqual([
      { file: '-', line: '0:"Hel"' },
      { file: '-', line: '0:"lo"' },
      { file: '-', line: 'd:{"finishReason":"stop"}' },
      { file: '-', end: true, lastEventId: '', retry: null },
    ]);
  });

  it('expands a glob as inspect and check do, and refuses a wrong --format before reading', async () => {
    const dir = providerFixturePath('openai-chat');
    const io = { ...memoryIo(), cwd: dir };
    expect(await main(['frames', '--json', 't*.sse'], io)).toBe(0);
    expect(new Set((lines(io.out()) as { file: string }[]).map((l) => l.file))).toEqual(
      new Set(['text.sse', 'tools-answered.sse']),
    );
    const glob = await run(['frames', '--json', join(dir, 'nothing-*.sse')]);
    expect(glob).toMatchObject({ code: 2, out: '' });
    expect(glob.err).toContain('no file matches');
    const format = await run(['frames', '--json', '--format', 'bogus', join(dir, 'text.sse')]);
    expect(format).toMatchObject({ code: 2, out: '' });
    expect(format.err).toContain('--format must be one of auto, json, xml, raw');
  });

  it('rejects a malformed --rechunk with a usage error', async () => {
    const { code, err } = await run(['frames', '--json', '--rechunk', 'sometimes', '-']);
    expect(code).toBe(2);
    expect(err).toContain('--rechunk takes N (bytes) or random:SEED');
  });
});

describe('stream-inspector inspect', () => {
  it('summarises a clean stream and exits 0', async () => {
    const { code, out } = await run(['inspect', fixturePath('json_stream.json.sse')]);
    expect(code).toBe(0);
    expect(out).toContain('json');
    expect(out).toContain('11111111-1111-4111-8111-111111111111');
    expect(out).toMatch(/23\s+text/);
  });

  it('exits 1 on an error frame, so QA pipelines can gate on recordings', async () => {
    const { code, out } = await run(['inspect', '--json', fixturePath('error_midstream.json.sse')]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { diagnostics: { rule: string; severity: string }[]; errors: number };
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ rule: 'stream.error-frame', severity: 'error' }),
    );
    expect(report.errors).toBeGreaterThan(0);
  });

  it('a run paused on frontend tools is awaiting them, as the app shows it: no call reported without result', async () => {
    const { code, out } = await run(['inspect', '--json', fixturePath('frontend_tools.json.sse')]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { diagnostics: { rule: string }[]; status: { label: string } };
    expect(report.diagnostics.map((d) => d.rule)).not.toContain('tool.call-without-result');
    expect(report.status.label).toBe('awaiting tools');
  });

  it('reads standard input', async () => {
    const { code, out } = await run(['inspect', '--json', '-'], readFixture('frontend_tools.xml.sse'));
    expect(code).toBe(0);
    expect((JSON.parse(out) as { formats: string[] }).formats).toEqual(['xml']);
  });

  it('honours --format and rejects an unknown one', async () => {
    expect((await run(['inspect', '--format', 'yaml', '-'])).code).toBe(2);
    const forced = await run(['inspect', '--json', '--format', 'json', fixturePath('frontend_tools.xml.sse')]);
    expect((JSON.parse(forced.out) as { formats: string[] }).formats).toEqual(['json']);
  });

  it('reports a missing file as an I/O error with exit code 2', async () => {
    const { code, err } = await run(['inspect', 'no/such/file.sse']);
    expect(code).toBe(2);
    expect(err).toContain('no/such/file.sse');
  });
});

describe('stream-inspector inspect on the files users already have', () => {
  const dirs: string[] = [];
  const tempFile = async (name: string): Promise<string> => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-test-'));
    dirs.push(dir);
    return join(dir, name);
  };
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('decodes every leg of a recording: the paused run and its tool_results continuation', async () => {
    const file = await tempFile('session.recording');
    const recorder = await createRecorder(file);
    for (const [i, fixture] of ['frontend_tools.json.sse', 'frontend_tools_resume.json.sse'].entries()) {
      const leg = recorder.startLeg({
        method: 'POST',
        url: `http://127.0.0.1:1/agent/${i ? 'tool_results' : 'run'}`,
        headers: [],
        body: '{}',
      });
      recorder.response(leg, { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }, true);
      recorder.chunk(leg, readFixture(fixture), 1000 * i);
      recorder.endLeg(leg, { reason: 'done' });
    }
    await recorder.close();
    const { code, out } = await run(['inspect', '--json', file]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { kind: string; formats: string[]; diagnostics: { rule: string }[] };
    expect(report.kind).toBe('recording');
    expect(report.formats).toEqual(['json', 'json']);
    // The frontend tool called in leg 0 got its result in leg 1.
    expect(report.diagnostics.map((d) => d.rule)).not.toContain('tool.call-without-result');
  });

  it('reports a recorded error response as failed, with its status, and decodes nothing of its body', async () => {
    const file = await tempFile('rejected.recording');
    const recorder = await createRecorder(file);
    const leg = recorder.startLeg({ method: 'POST', url: 'http://127.0.0.1:1/agent/run', headers: [], body: '{}' });
    const json = [['content-type', 'application/json']] as [string, string][];
    recorder.response(leg, { status: 422, statusText: 'Unprocessable Entity', headers: json }, false);
    recorder.chunk(leg, Buffer.from('{"detail":"bad"}'), 1);
    recorder.endLeg(leg, { reason: 'error', message: 'HTTP 422 Unprocessable Entity' });
    await recorder.close();
    const { code, out } = await run(['inspect', '--json', file]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { envelopes: number; diagnostics: unknown[]; status: { kind: string } };
    // Before, the body was decoded as agent envelopes: "truncated", with findings of fields it never had.
    expect(report).toMatchObject({ envelopes: 0, diagnostics: [], status: { kind: 'failed' } });
  });

  it('reports a HAR entry chosen that was an error page as failed, as the connection would have', async () => {
    const file = await tempFile('error.har');
    const entry = {
      startedDateTime: '2026-12-01T00:00:00.000Z',
      request: { method: 'POST', url: 'http://h/agent/run', headers: [] },
      response: {
        status: 502,
        statusText: 'Bad Gateway',
        headers: [{ name: 'Content-Type', value: 'text/html' }],
        content: { mimeType: 'text/html', text: '<html>bad gateway</html>' },
      },
      timings: {},
    };
    await writeFile(file, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
    const { code, out } = await run(['inspect', '--har-entry', '0', file]);
    expect(code).toBe(1);
    expect(out).toContain('Status: failed — HTTP 502 Bad Gateway');
    expect(out).not.toContain('Decoded as');
    // check reads the same entry: its status is what an assertion sees.
    expect((await run(['check', '--har-entry', '0', '--expect', 'status == "failed"', file])).code).toBe(0);
    // Several entries are opened as legs in the order given; a wrong number is a usage error.
    expect((await run(['inspect', '--har-entry', '0,0', file])).code).toBe(1);
    const bad = await run(['inspect', '--har-entry', 'first', file]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--har-entry takes an entry number, or several separated by commas, not 'first'");
  });

  it('blocks and frames read the entry of a HAR of several streams that --har-entry chooses, as inspect does', async () => {
    const file = await tempFile('two-streams.har');
    const entry = (url: string, fixture: string) => ({
      startedDateTime: '2026-12-01T00:00:00.000Z',
      request: { method: 'POST', url, headers: [] },
      response: {
        status: 200,
        statusText: 'OK',
        headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        content: { mimeType: 'text/event-stream', text: new TextDecoder().decode(readFixture(fixture)) },
      },
      timings: {},
    });
    const entries = [
      entry('http://h/agent/run', 'json_stream.json.sse'),
      entry('http://h/agent/run', 'probe_citations.json.sse'),
    ];
    await writeFile(file, JSON.stringify({ log: { version: '1.2', entries } }));
    // Without a choice each command says which entries there are.
    const unchosen = await run(['blocks', file]);
    expect(unchosen.code).toBe(2);
    expect(unchosen.err).toContain('the HAR file holds 2 stream entries; choose one with --har-entry N (several');
    expect(unchosen.err).not.toContain('harEntry');
    expect(unchosen.err).toMatch(/:\n {2}#0 POST http:\/\/h\/agent\/run → 200 text\/event-stream.*\n {2}#1 POST /);
    const blocks = await run(['blocks', '--har-entry', '1', file]);
    expect(blocks.code).toBe(0);
    expect(blocks.out).toBe((await run(['blocks', fixturePath('probe_citations.json.sse')])).out);
    const frames = await run(['frames', '--json', '--har-entry', '0', file]);
    expect(frames.code).toBe(0);
    const whole = await run(['frames', '--json', fixturePath('json_stream.json.sse')]);
    expect((lines(frames.out) as { data?: string }[]).map((l) => l.data)).toEqual(
      (lines(whole.out) as { data?: string }[]).map((l) => l.data),
    );
    const filtered = await run(['frames', '--json', '--har-entry', '1', '--filter', 'type == "citation"', file]);
    expect(lines(filtered.out).at(-1)).toEqual({ file, end: true, matched: 3 });
  });

  it.each([
    ['inspect', '--har-entry', '1', fixturePath('json_stream.json.sse')],
    ['blocks', '--har-entry', '0', fixturePath('json_stream.json.sse')],
    ['frames', '--json', '--har-entry', '0', '-'],
    ['check', '--expect', 'status == "done"', '--har-entry', '0', fixturePath('json_stream.json.sse')],
  ])(
    'refuses --har-entry for a file that is no HAR, as an option that does not apply (%s …), exit 2',
    async (...args) => {
      const { code, out, err } = await run(args, 'data: [DONE]\n\n');
      expect({ code, out }).toEqual({ code: 2, out: '' });
      expect(err).toMatch(
        /^stream-inspector \w+: --har-entry chooses among the entries of a HAR file, and .*(json_stream\.json\.sse \(sse\)|- \(standard input, read as an SSE capture\)) is not one\n$/,
      );
    },
  );

  it('decodes NDJSON of envelopes like the stream they came from', async () => {
    const file = await tempFile('envelopes.ndjson');
    const text = new TextDecoder().decode(readFixture('probe_citations.json.sse'));
    const items = text
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => l.slice('data: '.length));
    await writeFile(file, `${items.join('\n')}\n`);
    const fromNdjson = JSON.parse((await run(['inspect', '--json', file])).out) as {
      kind: string;
      envelopeTypes: Record<string, number>;
    };
    const fromSse = JSON.parse((await run(['inspect', '--json', fixturePath('probe_citations.json.sse')])).out) as {
      envelopeTypes: Record<string, number>;
    };
    expect(fromNdjson.kind).toBe('ndjson-envelopes');
    const { '[DONE]': _done, ...sseTypes } = fromSse.envelopeTypes;
    expect(fromNdjson.envelopeTypes).toMatchObject(sseTypes);
  });

  it('names what it expected when a file is none of the known kinds', async () => {
    const file = await tempFile('garbage.bin');
    await writeFile(file, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
    const { code, err } = await run(['inspect', file]);
    expect(code).toBe(2);
    expect(err).toMatch(/recording|SSE|NDJSON|HAR/);
  });
});

describe('stream-inspector blocks', () => {
  it('lists the pending frontend tool of a paused run', async () => {
    const { code, out } = await run(['blocks', fixturePath('frontend_tools.json.sse')]);
    expect(code).toBe(0);
    expect(out).toContain('awaits user_confirm (toolu_synth_confirm)');
  });
});

describe('the stream-inspector bin', () => {
  it.each(['--version', '-V'])('%s prints the name and version package.json gives, exit 0', async (flag) => {
    const { name, version } = JSON.parse(await readFile('package.json', 'utf8')) as Record<string, string>;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/stream-inspector.mjs', flag]);
    expect({ stdout, stderr }).toEqual({ stdout: `${name} ${version}\n`, stderr: '' });
  });

  it('runs from the sources in a fresh checkout (no build step)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [
      'bin/stream-inspector.mjs',
      'inspect',
      '--json',
      fixturePath('probe_citations.json.sse'),
    ]);
    expect((JSON.parse(stdout) as { envelopeTypes: Record<string, number> }).envelopeTypes['citation']).toBe(3);
  });

  it('record ends cleanly on SIGTERM (a service manager stopping it): exit 0, the reason said, the recording closed', async () => {
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n'), 5);
      res.on('close', () => clearInterval(timer));
    });
    const dir = await mkdtemp(join(tmpdir(), 'si-sigterm-'));
    try {
      const child = spawn(process.execPath, [
        'bin/stream-inspector.mjs',
        'record',
        `${server.url}/run`,
        '-o',
        join(dir, 'r.recording'),
      ]);
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        err += text;
        if (text.includes('streaming')) child.kill('SIGTERM');
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(err).toContain('The process was asked to end (SIGTERM), so the stream was stopped.');
      const records = (await readFile(join(dir, 'r.recording'), 'utf8')).trim().split('\n');
      expect(JSON.parse(records.at(-1) ?? '{}')).toMatchObject({ type: 'end' });
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints usage and exits 2 without a command', async () => {
    const { code, err } = await run([]);
    expect(code).toBe(2);
    expect(err).toContain('Usage:');
  });

  it.each([
    ['inspect', '--help'],
    ['blocks', 'x.sse', '-h'],
    ['record', 'http://127.0.0.1:1/run', '--help'],
  ])(
    'prints the usage of a command asked with --help after its name (%s …), on stdout, exit 0',
    async (name, ...args) => {
      const { code, out, err } = await run([name, ...args]);
      expect({ code, err }).toEqual({ code: 0, err: '' });
      expect(out).toMatch(new RegExp(`^Usage:\\n {2}stream-inspector ${name} `));
      expect(out).not.toContain('unknown option');
    },
  );

  it('names an unknown option and where the options are listed, exit 2', async () => {
    expect(await run(['blocks', '--fail-on', 'error', 'x.sse'])).toEqual({
      code: 2,
      out: '',
      err: "stream-inspector blocks: unknown option '--fail-on' (--help lists this command's options)\n",
    });
    // Other mistakes keep Node's words.
    expect((await run(['inspect', '--tools'])).err).toBe(
      "stream-inspector inspect: Option '--tools <value>' argument missing\n",
    );
  });

  it('reads --help after -- as an operand, and a command without --help as before', async () => {
    const { code, err } = await run(['inspect', '--', '--help']);
    expect(code).toBe(2);
    expect(err).toContain('--help: no such file or directory');
    expect((await run(['inspect', '--bogus', '-'])).err).toMatch(/^stream-inspector inspect: unknown option '--bogus'/);
  });
});
