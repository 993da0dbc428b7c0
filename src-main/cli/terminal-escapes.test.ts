import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalSafe } from '../../src-shared/text/terminal';
import { SSE_HEADERS, startLoopbackServer, type LoopbackServer } from '../services/connection/loopback-testing';
import { createRecorder } from '../services/recording/recorder';
import { fixturePath } from '../testing/fixtures';
import { main } from './main';
import { runCli, servingIo } from './test-io';

/** What a hostile stream puts in its strings: OSC 52 (clipboard write), clear screen, BEL, a C1 CSI, a bidi override. */
const OSC52 = '\u001b]52;c;cHduZWQ=\u0007';
const CLEAR = '\u001b[2J';
const BEL = '\u0007';
const C1_CSI = '\u009b31m';
const RLO = '\u202e';
const AGENT = `agent${OSC52}`;

const envelope = (fields: Record<string, unknown>): string =>
  `data: ${JSON.stringify({ agent: AGENT, final: false, delta: '', ...fields })}\n\n`;

/** A paused JSON-envelope run whose ids, model, type, tool, payloads and error frame all carry terminal escapes. */
const HOSTILE = [
  envelope({
    type: 'meta_init',
    final: true,
    delta: JSON.stringify({
      format: 'json',
      agent_uuid: AGENT,
      model: `model${CLEAR}${C1_CSI}`,
      user_query: `q${RLO}`,
    }),
  }),
  envelope({ type: 'text', delta: `hello ${CLEAR}${BEL} ${C1_CSI} ${RLO}evil` }),
  envelope({ type: 'text', final: true }),
  envelope({
    type: 'tool_call',
    final: true,
    delta: JSON.stringify({ message: `ok?${OSC52}` }),
    id: `t${BEL}1`,
    name: `user_confirm${CLEAR}`,
  }),
  envelope({
    type: 'awaiting_frontend_tools',
    final: true,
    delta: JSON.stringify([
      { tool_use_id: `t${BEL}1`, name: `user_confirm${CLEAR}`, input: { message: `confirm?${OSC52}${RLO}` } },
    ]),
  }),
  envelope({ type: `x${CLEAR}` }),
  `data: not json ${CLEAR}${BEL}${C1_CSI}\n\n`,
  `data: ${JSON.stringify({ error: `E${CLEAR}`, message: `boom${OSC52}`, traceback: `tb${C1_CSI}` })}\n\n`,
].join('');

let dir: string;
let server: LoopbackServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-escapes-'));
  await writeFile(join(dir, 'hostile.sse'), HOSTILE);
  // A recording with a record type of its own, which a file-level finding names (what `serve` prints).
  const recorder = await createRecorder(join(dir, 'hostile.recording'));
  const leg = recorder.startLeg({ method: 'GET', url: 'http://127.0.0.1:1/agent/run', headers: [], body: null });
  recorder.chunk(leg, new TextEncoder().encode(HOSTILE), 0);
  recorder.endLeg(leg, { reason: 'done' });
  await recorder.close();
  await appendFile(join(dir, 'hostile.recording'), `${JSON.stringify({ type: `kind${OSC52}${C1_CSI}`, t: 1 })}\n`);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runCli(args, { cwd: dir });

/** A character terminalSafe escapes: C0 (but LF and TAB), DEL, C1, bidi and line separators, lone surrogates. */
/* eslint-disable no-control-regex -- control characters are exactly what is looked for */
const RAW_CONTROL =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/* eslint-enable no-control-regex */
const hasTerminalControls = (text: string): boolean => RAW_CONTROL.test(text);

/** Nothing raw reached the terminal, and the hostile text is still there, visibly escaped. */
function expectEscaped(output: string, visible: RegExp = /\\x1b\]52;c;|\\u001b\]52;c;/): void {
  expect(hasTerminalControls(output), JSON.stringify(output.slice(0, 400))).toBe(false);
  for (const raw of ['\u001b', BEL, '\u009b', RLO]) expect(output).not.toContain(raw);
  expect(output).toMatch(visible);
}

describe('terminalSafe', () => {
  it('writes C0, C1, DEL, bidi controls and lone surrogates as visible escapes, keeping text, line feeds and tabs', () => {
    expect(terminalSafe(`a${CLEAR}b${BEL}\u007f${C1_CSI}${RLO}\u2066\ud800x\udc00 é😀\n\t`)).toBe(
      'a\\x1b[2Jb\\x07\\x7f\\x9b31m\\u202e\\u2066\\ud800x\\udc00 é😀\n\t',
    );
    expect(terminalSafe('line\nnext\r', { multiline: false })).toBe('line\\x0anext\\x0d');
    expect(terminalSafe('plain text stays the same object')).toBe('plain text stays the same object');
  });

  it('in json style, keeps JSON valid and the values the same', () => {
    const json = JSON.stringify({ v: `${C1_CSI}${RLO}\u007f` });
    const safe = terminalSafe(json, { json: true });
    expect(hasTerminalControls(safe)).toBe(false);
    expect(JSON.parse(safe)).toEqual(JSON.parse(json));
  });
});

describe('stream-controlled terminal escapes never reach the terminal raw', () => {
  it.each<[string, string[], RegExp?]>([
    ['inspect', ['inspect', 'hostile.sse']],
    ['inspect --json', ['inspect', '--json', 'hostile.sse']],
    ['blocks', ['blocks', 'hostile.sse']],
    ['blocks --json', ['blocks', '--json', 'hostile.sse']],
    ['frames --json', ['frames', '--json', 'hostile.sse']],
    ['frames --json --filter', ['frames', '--json', '--filter', 'type == "text"', 'hostile.sse']],
    ['inspect --json --filter', ['inspect', '--json', '--filter', 'type == "text"', 'hostile.sse']],
    ['check --json', ['check', '--json', '--expect', 'some type == "text"', 'hostile.sse']],
    ['diff', ['diff', 'hostile.sse', fixturePath('json_stream.json.sse')], /\\x1b\[2J/],
    ['diff --json', ['diff', '--json', 'hostile.sse', fixturePath('json_stream.json.sse')]],
    ['answer (listing the pending tools)', ['answer', 'hostile.sse']],
  ])('%s', async (_name, args, visible) => {
    const { out, err } = await run(args);
    expectEscaped(out + err, visible);
    if (args.includes('--json')) {
      // JSON stays valid and keeps the exact strings: the escapes are JSON's own.
      const text = args[0] === 'frames' ? `[${out.trim().split('\n').join(',')}]` : out;
      expect(JSON.stringify(JSON.parse(text))).toContain('\\u001b]52;c;');
    }
  });

  it('inspect keeps the values: its JSON holds the agent id with the escape characters themselves', async () => {
    const report = JSON.parse((await run(['inspect', '--json', 'hostile.sse'])).out) as {
      agents: { uuid: string; model?: string }[];
    };
    expect(report.agents[0]).toMatchObject({ uuid: AGENT, model: `model${CLEAR}${C1_CSI}` });
  });

  it('record: a stream of them, and a failing server body of them', async () => {
    server = await startLoopbackServer((req, res) => {
      if (req.url?.startsWith('/fail')) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`Internal error ${OSC52}${CLEAR}${C1_CSI}${RLO}`);
        return;
      }
      res.writeHead(200, SSE_HEADERS);
      res.end(HOSTILE);
    });
    const streamed = await run(['record', `${server.url}/agent/run`, '-o', 'hostile.ndjson.rec', '--json']);
    expectEscaped(streamed.out + streamed.err);
    const failed = await run(['record', `${server.url}/fail`, '-o', 'fail.rec']);
    expect(failed.code).toBe(2);
    expect(failed.err).toMatch(/HTTP 500/);
    expectEscaped(failed.err);
  });

  it('serve: the findings it prints about the file', async () => {
    const { io, ready, interrupt } = servingIo();
    const serving = main(['serve', join(dir, 'hostile.recording'), '--port', '0'], io);
    await ready;
    interrupt();
    expect(await serving).toBe(0);
    expectEscaped(io.out() + io.err(), /\\u001b\]52;c;|\\x1b\]52;c;/);
  });

  it('errors a command reports about its input', async () => {
    const { code, err } = await run(['inspect', `no-such-file${OSC52}.sse`]);
    expect(code).toBe(2);
    expectEscaped(err);
  });
});
