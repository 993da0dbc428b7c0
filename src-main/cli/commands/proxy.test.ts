import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readFixture } from '../../testing/fixtures';
import { tinyFilesystem } from '../../testing/tiny-filesystem';
import { openSource } from '../../services/importers';
import { SSE_HEADERS, startLoopbackServer } from '../../services/connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../../services/demo-agent/index';
import { readAll } from '../../services/demo-agent/testing/http';
import { readFirehoses, startFirehose } from '../../services/proxy/firehose-testing';
import { main } from '../main';
import { memoryIo, servingIo } from '../test-io';

let dir: string;
let agent: DemoAgent;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-cli-proxy-'));
  agent = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

it('proxy: forwards a run, prints one line per request, records the stream; check reads the recording', async () => {
  const { io, ready, interrupt, printed } = servingIo();
  io.cwd = dir;
  const exit = main(['proxy', '--listen', '0', '--target', agent.url, '--record-dir', 'runs'], io);
  await ready;
  const url = /Proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())![1]!;
  const response = await fetch(`${url}/agent/run?format=json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user_prompt: 'x', scenario: 'tour' }),
  });
  await readAll(response);
  await printed(/POST +\/agent\/run\?format=json +→ +200/);
  interrupt();
  expect(await exit).toBe(0);
  expect(io.out()).toMatch(/text\/event-stream.* session s\w+ → .*runs\/proxy-.*\.recording/);
  const [file] = await readdir(join(dir, 'runs'));
  const checkIo = { ...memoryIo(), cwd: dir };
  expect(
    await main(
      ['check', `runs/${file}`, '--expect', 'status == "done"', '--expect', 'some type == "tool_result_image"'],
      checkIo,
    ),
  ).toBe(0);
});

it('proxy: a session is closed once its stream is recorded, so streams leave no descriptor open', async () => {
  const { io, ready, interrupt, printed } = servingIo();
  io.cwd = dir;
  // Larger than a spool file's write buffer, so that each session's spools are real open files.
  const stream = readFixture('example_1.raw.sse');
  const server = await startLoopbackServer((_req, res) => {
    res.writeHead(200, SSE_HEADERS);
    res.end(stream);
  });
  const exit = main(['proxy', '--listen', '0', '--target', server.url, '--record-dir', 'many'], io);
  await ready;
  const url = /Proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())![1]!;
  const openDescriptors = (): number => readdirSync('/proc/self/fd').length;
  const run = async (): Promise<void> => {
    await readAll(await fetch(`${url}/agent/run`, { method: 'POST', body: '{}' }));
  };
  await run();
  const sessionLines = (count: number) => (out: string) => (out.match(/session s\w+ → /g)?.length ?? 0) >= count;
  await printed(sessionLines(1));
  await new Promise((r) => setTimeout(r, 200));
  const before = openDescriptors();
  const STREAMS = 20;
  for (let i = 0; i < STREAMS; i++) await run();
  await printed(sessionLines(STREAMS + 1));
  await new Promise((r) => setTimeout(r, 200));
  // Each open session holds its spool files; a closed one holds none.
  expect(openDescriptors() - before).toBeLessThan(STREAMS);
  interrupt();
  expect(await exit).toBe(0);
  await server.close();
  expect(await readdir(join(dir, 'many'))).toHaveLength(STREAMS + 1);
});

it('proxy: a full temp folder fails the recording and says so, instead of cutting it silently', async (context) => {
  const tmp = join(dir, 'tiny-tmp');
  await mkdir(tmp);
  const tiny = tinyFilesystem(tmp, 64);
  if (!tiny) {
    context.skip();
    return;
  }
  const savedTmp = process.env['TMPDIR'];
  try {
    // The sessions' spool files go to the temp folder: 64 KiB, less than the stream.
    process.env['TMPDIR'] = tmp;
    const stream = readFixture('example_1.raw.sse');
    const server = await startLoopbackServer((_req, res) => {
      res.writeHead(200, SSE_HEADERS);
      res.end(stream);
    });
    const { io, ready, interrupt, printed } = servingIo();
    io.cwd = dir;
    const exit = main(['proxy', '--listen', '0', '--target', server.url, '--record-dir', 'full-tmp'], io);
    await ready;
    const url = /Proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())![1]!;
    const { bytes } = await readAll(await fetch(`${url}/agent/run`, { method: 'POST', body: '{}' }));
    expect(bytes.length).toBe(stream.length);
    await printed(/POST +\/agent\/run +→ +200/);
    interrupt();
    expect(await exit).toBe(0);
    await server.close();
    expect(io.err()).toMatch(
      /error: the recording .*full-tmp\/proxy-.*\.recording is incomplete: Writing the session's raw bytes to disk failed: ENOSPC/,
    );
    // The recording itself ends its leg failed, naming the same reason.
    const [file] = await readdir(join(dir, 'full-tmp'));
    const source = await openSource(join(dir, 'full-tmp', file!));
    expect(source.legs[0]!.outcome).toMatchObject({
      reason: 'error',
      message: expect.stringMatching(/ENOSPC/) as unknown,
    });
  } finally {
    if (savedTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = savedTmp;
    tiny.unmount();
  }
});

it('proxy: an interrupt stops forwarding within 2 s while streams pour through, and every recording is closed', async () => {
  const server = await startFirehose();
  const { io, ready, interrupt } = servingIo();
  io.cwd = dir;
  const exit = main(['proxy', '--listen', '0', '--target', server.url, '--record-dir', 'firehose'], io);
  await ready;
  const url = /Proxy on (http:\/\/127\.0\.0\.1:(\d+))/.exec(io.out())!;
  const clients = readFirehoses(`${url[1]}/agent/run`, 4);
  // Past the 64 KiB a stream may pass before its session is open: every recording is being written.
  await clients.received(256 * 1024);
  const interruptedAt = performance.now();
  interrupt();
  // The streams are cut and the port is closed at once, whatever is still being written.
  const results = await clients.ended;
  for (const result of results) expect(result.error).not.toBeNull();
  const refused = await new Promise<boolean>((resolve) =>
    connect(Number(url[2]), '127.0.0.1')
      .on('connect', () => resolve(false))
      .on('error', () => resolve(true)),
  );
  expect(refused).toBe(true);
  expect(performance.now() - interruptedAt).toBeLessThan(2000);
  expect(await exit).toBe(0);
  await server.close();
  // Each recording was closed: its leg has its end record (cut by the client, or closed with the proxy), never "done".
  for (const file of await readdir(join(dir, 'firehose'))) {
    const source = await openSource(join(dir, 'firehose', file));
    expect(['aborted', 'closed']).toContain(source.legs[0]!.outcome?.reason);
  }
});

it('proxy: --target and --listen are required', async () => {
  const io = memoryIo();
  expect(await main(['proxy', '--listen', '0'], io)).toBe(2);
  expect(io.err()).toContain('--target URL is required');
});
