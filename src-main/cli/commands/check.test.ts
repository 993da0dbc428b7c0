import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../services/demo-agent/index';
import { fixturePath, PROJECT_ROOT, readProjectText } from '../../testing/fixtures';
import { tinyFilesystem } from '../../testing/tiny-filesystem';
import { main } from '../main';
import { memoryIo } from '../test-io';

let dir: string;
let agent: DemoAgent;
const SCENARIOS = ['tour', 'subagents', 'frontend-tools', 'error-midstream'];

async function run(args: string[]) {
  const io = { ...memoryIo(), cwd: dir };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-check-'));
  agent = await startDemoAgent({ pace: 'fast' });
  await mkdir(join(dir, 'runs'));
  for (const scenario of SCENARIOS) {
    const recorded = await run([
      'record',
      `${agent.url}/agent/run?format=json`,
      '-d',
      JSON.stringify({ user_prompt: 'x', scenario }),
      '-o',
      `runs/${scenario}.recording`,
    ]);
    // record exits 1 when the stream ends on an error frame, as error-midstream does.
    expect(recorded.code, recorded.err).toBe(scenario === 'error-midstream' ? 1 : 0);
  }
});
afterAll(async () => {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

describe('stream-inspector check', () => {
  it('passes the example spec for the demo agent (resources/specs/demo-agent.yaml) on recorded runs', async () => {
    await writeFile(join(dir, 'demo-agent.yaml'), readProjectText('resources/specs/demo-agent.yaml'));
    const { code, out } = await run(['check', '--spec', 'demo-agent.yaml', '--junit', 'check.xml']);
    expect(out).toContain('4 recordings, 22 assertions: 22 passed, 0 failed');
    expect(code).toBe(0);
    const junit = await readFile(join(dir, 'check.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="stream-inspector check" tests="22" failures="0">/);
    expect(junit.match(/<testcase /g)).toHaveLength(22);
    // Each suite names its recording's absolute path, for opening the report again (docs/check.md).
    expect(junit).toContain(
      `<properties><property name="recording" value="${join(dir, 'runs/tour.recording')}"/></properties>`,
    );
  });

  it('fails with exit 1, the assertion, why, and the envelope that decided it', async () => {
    const { code, out } = await run([
      'check',
      'runs/error-midstream.recording',
      '--expect',
      'status == "done"',
      '--expect',
      'none finding.severity == "error"',
      '--expect',
      'some type == "text"',
    ]);
    expect(code).toBe(1);
    expect(out).toContain('status error');
    expect(out).toMatch(/FAIL {2}status == "done" +status is error: The stream ended with an error in event \d+/);
    expect(out).toMatch(
      /FAIL {2}none finding\.severity == "error" +envelope #(\d+) matches\n {8}at #\1 +leg 0 {2}main /,
    );
    expect(out).toMatch(/PASS {2}some type == "text"/);
    expect(out).toContain('1 recording, 3 assertions: 1 passed, 2 failed');
  });

  it('checks every agent on its own and names the one that fails', async () => {
    const { code, out } = await run([
      'check',
      fixturePath('multi_agent.json.sse'),
      '--expect',
      'every agent: some type == "meta_final"',
    ]);
    expect(code).toBe(1);
    expect(out).toContain('agent sub 1: no envelope matches');
  });

  it('prints --json with each result and its envelope, and writes JUnit failures', async () => {
    const { code, out } = await run([
      'check',
      'runs/*.recording',
      '--expect',
      'count(type == "text") >= 10',
      '--json',
      '--junit',
      'out/../fail.xml',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as {
      passed: number;
      failed: number;
      recordings: {
        file: string;
        status: string;
        results: { pass: boolean; detail: string; envelope?: { seq: number; agent: string } }[];
      }[];
    };
    expect(report.recordings.map((r) => r.status).sort()).toEqual(['done', 'done', 'error', 'paused']);
    const small = report.recordings.find((r) => r.file.endsWith('frontend-tools.recording'))!;
    expect(small.results[0]).toMatchObject({ pass: false, detail: 'count is 6', envelope: { agent: 'main' } });
    expect(report).toMatchObject({ passed: 2, failed: 2 });
    const junit = await readFile(join(dir, 'fail.xml'), 'utf8');
    expect(junit).toMatch(
      /<failure type="assertion" message="count is 6">count\(type == &quot;text&quot;\) &gt;= 10&#10;count is 6&#10;#1/,
    );
  });

  it('on a full disk, exits 2 naming the JUnit file it could not write, and leaves no empty one behind', async (context) => {
    await mkdir(join(dir, 'full'));
    const full = tinyFilesystem(join(dir, 'full'), 4);
    if (!full) return context.skip();
    try {
      await writeFile(join(dir, 'full', 'filler'), Buffer.alloc(4096)).catch(() => undefined);
      const { code, err } = await run([
        'check',
        'runs/tour.recording',
        '--expect',
        'status == "done"',
        '--junit',
        'full/junit.xml',
      ]);
      expect(err).toMatch(/junit\.xml.*ENOSPC/);
      expect(code).toBe(2);
      expect(existsSync(join(dir, 'full', 'junit.xml'))).toBe(false);
    } finally {
      full.unmount();
    }
  });

  it('refuses a bad expression before reading any file, pointing at the character (exit 2)', async () => {
    const { code, err } = await run(['check', 'missing.recording', '--expect', 'some type == "text" && nmae == "x"']);
    expect(code).toBe(2);
    expect(err).toContain("Unknown field 'nmae'; did you mean 'name'?");
    expect(err).toContain(`  some type == "text" && nmae == "x"\n  ${' '.repeat(23)}^^^^`);
  });

  it('reports a spec with no assertions, a glob that matches nothing, and a recording that cannot be read', async () => {
    await writeFile(join(dir, 'empty.yaml'), 'recordings: [runs/*.recording]\n');
    expect((await run(['check', '--spec', 'empty.yaml'])).err).toContain("'assertions' in");
    expect((await run(['check', 'nothing-*.recording', '--expect', 'status == "done"'])).err).toContain(
      'no file matches nothing-*.recording',
    );
    await writeFile(
      join(dir, 'broken.json'),
      '{"suites": [{"name": "x", "recordings": ["runs/tour.recording"], "assertions": {"ok": "status == \\"done\\""}}]}',
    );
    expect((await run(['check', '--spec', 'broken.json'])).code).toBe(0);
    await writeFile(join(dir, 'unreadable.recording'), '');
    const unreadable = await run(['check', 'unreadable.recording', '--expect', 'status == "done"']);
    expect(unreadable.code).toBe(1);
    expect(unreadable.out).toMatch(/FAIL {2}status == "done" +(not checked|status is truncated)/);
  });

  it('names the findings of the envelope that decided an assertion about findings, and only then', async () => {
    const file = join(PROJECT_ROOT, 'resources/samples/truncated.recording');
    const { code, out } = await run([
      'check',
      file,
      '--expect',
      'none finding.severity == "error"',
      '--expect',
      'some type == "meta_init"',
    ]);
    expect(code).toBe(1);
    // The file's own finding is on its leg's first envelope, a meta_init that says nothing of it.
    expect(out).toMatch(
      /FAIL {2}none finding\.severity == "error" {2}envelope #0 matches\n {8}at #0 .*meta_init.*\n {8}findings: error sse\.unterminated-event, warning stream\.missing-done\n/,
    );
    expect(out).toMatch(/PASS {2}some type == "meta_init" +envelope #0 matches\n {8}by #0 [^\n]*\n\n/);
  });

  it('says why a file of several lines of reasons cannot be read on lines of their own, once', async () => {
    const entry = async (fixture: string) => ({
      startedDateTime: '2026-12-01T00:00:00.000Z',
      request: { method: 'POST', url: 'http://h/agent/run', headers: [] },
      response: {
        status: 200,
        headers: [{ name: 'Content-Type', value: 'text/event-stream' }],
        content: { mimeType: 'text/event-stream', text: await readFile(fixturePath(fixture), 'utf8') },
      },
      timings: {},
    });
    const entries = [await entry('json_stream.json.sse'), await entry('probe_citations.json.sse')];
    await writeFile(join(dir, 'two.har'), JSON.stringify({ log: { version: '1.2', entries } }));
    const { code, out } = await run(['check', 'two.har', '--expect', 'status == "done"', '--expect', 'some final']);
    expect(code).toBe(1);
    const [head, first, second, ...results] = out.split('\n');
    expect(head).toMatch(
      /^two\.har · cannot be read: .*two\.har: the HAR file holds 2 stream entries; choose one .*:$/,
    );
    expect(first).toMatch(/^ {6}#0 POST http:\/\/h\/agent\/run → 200 text\/event-stream/);
    expect(second).toMatch(/^ {6}#1 POST /);
    expect(results.slice(0, 2)).toEqual([
      '  FAIL  status == "done"  not checked',
      '  FAIL  some final        not checked',
    ]);
    expect(out).not.toContain('\\x0a');
    // --json keeps the reason in each result.
    const json = JSON.parse((await run(['check', 'two.har', '--expect', 'status == "done"', '--json'])).out) as {
      recordings: { results: { detail: string }[] }[];
    };
    expect(json.recordings[0]?.results[0]?.detail).toMatch(/^not checked: .*holds 2 stream entries.*\n {2}#0 POST/s);
  });

  it('reads a spec whose suites share settings through merge keys, 150 of them, and still refuses a billion laughs', async () => {
    const suites = Array.from({ length: 150 }, (_, i) => `  - <<: *common\n    name: run ${i + 1}\n`).join('');
    await writeFile(
      join(dir, 'merged.yaml'),
      `common: &common\n  recordings: [runs/tour.recording]\n  assertions: ['status == "done"']\nsuites:\n${suites}`,
    );
    const merged = await run(['check', '--spec', 'merged.yaml', '--json']);
    expect(merged.err).toBe('');
    expect(JSON.parse(merged.out)).toMatchObject({ passed: 150, failed: 0 });
    expect(merged.code).toBe(0);
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 9; level++) {
      const previous = String.fromCharCode(96 + level);
      levels.push(
        `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array.from({ length: 9 }, () => `*${previous}`).join(',')}]`,
      );
    }
    await writeFile(join(dir, 'laughs.yaml'), `${levels.join('\n')}\nassertions: ['status == "done"']\n`);
    const laughs = await run(['check', '--spec', 'laughs.yaml', 'runs/tour.recording']);
    expect(laughs.code).toBe(2);
    expect(laughs.err).toContain('does not parse: Excessive alias count');
  });

  it('checks many files in one run, paths and globs as inspect takes them: each once, in order, named as typed', async () => {
    const { code, out } = await run([
      'check',
      'runs/tour.recording',
      'runs/*.recording',
      'missing.recording',
      '--expect',
      'status != "failed"',
      '--json',
    ]);
    const report = JSON.parse(out) as {
      passed: number;
      failed: number;
      recordings: { file: string; error?: string; results: { pass: boolean }[] }[];
    };
    expect(report.recordings.map((r) => r.file)).toEqual([
      'runs/tour.recording',
      'runs/error-midstream.recording',
      'runs/frontend-tools.recording',
      'runs/subagents.recording',
      'missing.recording',
    ]);
    expect(report.recordings.slice(0, 4).every((r) => r.results[0]!.pass)).toBe(true);
    // A file that cannot be read fails its assertions; the others are still checked.
    expect(report.recordings[4]!.error).toMatch(/missing\.recording: no such file or directory$/);
    expect(report).toMatchObject({ passed: 4, failed: 1 });
    expect(code).toBe(1);
  });

  it('escapes control characters from the stream in the terminal report', async () => {
    const hostile =
      'data: {"type":"text","agent":"a","final":true,"delta":"\\u001b[2J\\u009b31mred"}\n\ndata: [DONE]\n\n';
    await writeFile(join(dir, 'hostile.sse'), hostile);
    const { out } = await run(['check', 'hostile.sse', '--expect', 'none delta contains "red"']);
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('\u009b');
    expect(out).toContain('\\u001b[2J\\x9b31mred');
  });
});

describe('inspect --filter and frames --filter', () => {
  it('lists the envelopes a filter matches, in text and JSON', async () => {
    const file = fixturePath('multi_agent.json.sse');
    const text = await run(['inspect', file, '--filter', 'agent == "sub 1" && type == "tool_call" && final']);
    expect(text.out).toContain('Envelopes matching agent == "sub 1" && type == "tool_call" && final: 2 of 173');
    expect(text.out).toMatch(/#39 +leg 0 {2}sub 1 +tool_call +final .* multiply toolu_/);
    const json = JSON.parse(
      (await run(['inspect', file, '--json', '--filter', 'name in ["add", "multiply"] && type == "tool_result"'])).out,
    ) as { matches: { name: string; agent: string }[] };
    expect(json.matches.map((m) => m.name).sort()).toEqual(['add', 'multiply']);
    expect(json.matches.every((m) => m.agent === 'sub 1')).toBe(true);
  });

  it('keeps the events that carry a matching envelope, per leg', async () => {
    const { code, out } = await run(['frames', 'runs/tour.recording', '--json', '--filter', 'type == "tool_call"']);
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { leg?: number; data?: string; matched?: number });
    expect(lines.at(-1)).toMatchObject({ end: true, matched: 2 });
    expect(
      lines.slice(0, -1).every((l) => l.leg === 0 && (JSON.parse(l.data!) as { type: string }).type === 'tool_call'),
    ).toBe(true);
  });

  it('without a filter, prints the events of the stream a recording or an NDJSON file holds, not of the file itself', async () => {
    type Line = { leg?: number; data?: string; end?: boolean };
    const parsed = (out: string): Line[] =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
    const all = parsed((await run(['frames', 'runs/tour.recording', '--json'])).out);
    const filtered = parsed((await run(['frames', 'runs/tour.recording', '--json', '--filter', 'seq >= 0'])).out);
    const events = all.filter((l) => !l.end);
    expect(events.length).toBeGreaterThan(10);
    // Every event of the leg, [DONE] included: what a filter selecting every envelope keeps.
    expect(events).toEqual(filtered.filter((l) => !l.end).map((l) => ({ file: 'runs/tour.recording', ...l, id: '' })));
    expect(events.at(-1)).toMatchObject({ leg: 0, data: '[DONE]' });
    expect(all.at(-1)).toMatchObject({ leg: 0, end: true });
    expect((await run(['frames', 'runs/tour.recording', '--json', '--rechunk', 'random:3'])).out).toBe(
      (await run(['frames', 'runs/tour.recording', '--json'])).out,
    );

    const items = [
      '{"type":"text","agent":"a","final":false,"delta":"hi"}',
      '{"type":"text","agent":"a","final":true,"delta":""}',
    ];
    await writeFile(join(dir, 'items.ndjson'), `${items.join('\n')}\n`);
    expect(
      parsed((await run(['frames', 'items.ndjson', '--json'])).out)
        .filter((l) => !l.end)
        .map((l) => l.data),
    ).toEqual(items);
  });

  it('shows a bad filter with a caret and exits 2; refuses --filter with --rechunk', async () => {
    const bad = await run(['inspect', 'runs/tour.recording', '--filter', 'type == "text" &&']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('Expected a field, a quoted text, ! or (, found the end');
    expect(
      (await run(['frames', 'runs/tour.recording', '--json', '--filter', 'final', '--rechunk', '3'])).err,
    ).toContain('do not combine');
  });
});
