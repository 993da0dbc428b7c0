import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultSessionService } from '../hosts/default-service';
import { createRecorder } from '../services/recording/recorder';
import { settled } from '../services/sessions/service-testing';
import { readFixture } from '../testing/fixtures';
import { main } from './main';
import { memoryIo } from './test-io';

/**
 * Recordings damaged after they were written (lines deleted by hand, a sync tool, a bad
 * disk), written by the real recorder and read the way users meet them: `inspect`, `check`
 * and the app's session service. A damaged recording is never "done", and assertions see
 * every finding about it.
 */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-damaged-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const io = { ...memoryIo(), cwd: dir };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

/** `stream` split into `pieces` chunks of about equal size. */
function chunksOf(stream: Uint8Array, pieces: number): Uint8Array[] {
  const size = Math.ceil(stream.length / pieces);
  return Array.from({ length: Math.ceil(stream.length / size) }, (_, i) => stream.subarray(i * size, (i + 1) * size));
}

/** A recording of the given legs, each a stream sent in `pieces` chunks, written by the recorder; its lines. */
async function recordLegs(name: string, legs: readonly Uint8Array[], pieces: number): Promise<string[]> {
  const path = join(dir, name);
  const recorder = await createRecorder(path, { flushIntervalMs: 10 });
  let t = 1000;
  for (const stream of legs) {
    const leg = recorder.startLeg({ method: 'POST', url: 'http://127.0.0.1:9/agent/run', headers: [], body: '{}' });
    recorder.response(leg, { status: 200, statusText: 'OK', headers: [['content-type', 'text/event-stream']] }, true);
    for (const chunk of chunksOf(stream, pieces)) recorder.chunk(leg, chunk, t++);
    recorder.endLeg(leg, { reason: 'done' });
  }
  await recorder.close();
  return (await readFile(path, 'utf8')).trimEnd().split('\n');
}

const chunkLinesOf = (lines: readonly string[], leg: number): number[] =>
  lines.flatMap((line, i) => {
    const record = JSON.parse(line) as { type?: string; leg?: number };
    return record.type === 'chunk' && record.leg === leg ? [i] : [];
  });

describe('damaged recordings', () => {
  it('a leg whose last chunk lines were deleted is a hole (an error), counted by its end record', async () => {
    const lines = await recordLegs(
      'whole.recording',
      [readFixture('frontend_tools.json.sse'), readFixture('frontend_tools_resume.json.sse')],
      6,
    );
    expect(JSON.parse(lines.find((l) => l.includes('"type":"end"'))!)).toMatchObject({
      leg: 0,
      reason: 'done',
      chunks: 6,
      bytes: readFixture('frontend_tools.json.sse').length,
    });
    const last = chunkLinesOf(lines, 0).at(-1)!;
    await writeFile(join(dir, 'tail.recording'), `${lines.filter((_, i) => i !== last).join('\n')}\n`);
    const { out } = await run(['inspect', '--json', 'tail.recording']);
    const report = JSON.parse(out) as {
      status: { kind: string; reason: string };
      diagnostics: { rule: string; severity: string; first: string }[];
    };
    expect(report.diagnostics.find((d) => d.rule === 'recording.chunk-sequence')).toMatchObject({
      severity: 'error',
      first: expect.stringMatching(
        /^Leg 0 ends with 6 chunk record\(s\), \d+ bytes, written, but its chunks in the file end at chunk 5, .*its last 1 chunk record\(s\)/,
      ) as unknown,
    });
    expect(report.status.kind).toBe('truncated');
    expect(report.status.reason).toMatch(/^Part of the stream was lost: Leg 0 ends with 6 chunk record/);
  });

  it('reads end records written before they carried counts, without the check and without a finding', async () => {
    const lines = await recordLegs(
      'whole.recording',
      [readFixture('frontend_tools.json.sse'), readFixture('frontend_tools_resume.json.sse')],
      6,
    );
    const old = lines.map((line) => line.replace(/,"chunks":\d+,"bytes":\d+/, ''));
    expect(old.join('\n')).not.toContain('"chunks"');
    const last = chunkLinesOf(old, 0).at(-1)!;
    await writeFile(join(dir, 'old.recording'), `${old.filter((_, i) => i !== last).join('\n')}\n`);
    const report = JSON.parse((await run(['inspect', '--json', 'old.recording'])).out) as {
      diagnostics: { rule: string }[];
    };
    expect(report.diagnostics.map((d) => d.rule)).not.toContain('recording.chunk-sequence');
    await writeFile(join(dir, 'old-whole.recording'), `${old.join('\n')}\n`);
    const whole = JSON.parse((await run(['inspect', '--json', 'old-whole.recording'])).out) as {
      status: { kind: string };
      diagnostics: { rule: string }[];
    };
    expect(whole.status.kind).toBe('done');
    expect(whole.diagnostics.filter((d) => d.rule.startsWith('recording.'))).toEqual([]);
  });

  it('a recording with 44 holes is not done, for check, inspect and the app, and its findings reach assertions', async () => {
    const lines = await recordLegs('holes-source.recording', [readFixture('multi_agent.json.sse')], 120);
    const chunkLines = chunkLinesOf(lines, 0);
    const deleted = new Set(Array.from({ length: 44 }, (_, i) => chunkLines[2 + i * 2]!));
    await writeFile(join(dir, 'holes.recording'), `${lines.filter((_, i) => !deleted.has(i)).join('\n')}\n`);

    const checked = await run([
      'check',
      'holes.recording',
      '--json',
      '--expect',
      'status == "done"',
      '--expect',
      'none finding.severity == "error"',
      '--expect',
      'count(finding.rule == "recording.chunk-sequence") == 1',
    ]);
    const report = JSON.parse(checked.out) as {
      recordings: { status: string; results: { pass: boolean; detail: string }[] }[];
    };
    expect(report.recordings[0]!.status).toBe('truncated');
    expect(report.recordings[0]!.results.map((r) => r.pass)).toEqual([false, false, true]);
    expect(checked.code).toBe(1);
    const inspected = JSON.parse((await run(['inspect', '--json', 'holes.recording'])).out) as {
      status: { reason: string };
      diagnostics: { rule: string; count: number }[];
    };
    expect(inspected.diagnostics.find((d) => d.rule === 'recording.chunk-sequence')?.count).toBe(44);
    expect(inspected.status.reason).toMatch(
      /^Part of the stream was lost: 44 findings, the first: Before the chunk record/,
    );

    const service = createDefaultSessionService();
    try {
      const { id } = await service.openFile({ path: join(dir, 'holes.recording') });
      expect((await settled(service, id)).end).toMatchObject({
        kind: 'truncated',
        reason: expect.stringMatching(/^Part of the stream was lost/) as unknown,
      });
    } finally {
      await service.dispose();
    }
  });
});
