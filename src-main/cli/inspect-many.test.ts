import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../testing/fixtures';
import { main } from './main';
import { memoryIo } from './test-io';

/** `inspect` over many files in one run: paths and globs, one report each, one exit code. */
const FIXTURES = dirname(fixturePath('MANIFEST.json'));

const run = async (args: string[], cwd = FIXTURES) => {
  const io = { ...memoryIo(), cwd };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
};

describe('stream-inspector inspect FILE...', () => {
  it('reports each file in order and sums up; one failing file fails the run', async () => {
    const { code, out } = await run(['inspect', 'json_stream.json.sse', 'error_midstream.json.sse']);
    expect(code).toBe(1);
    expect(out.indexOf('json_stream.json.sse (')).toBeLessThan(out.indexOf('error_midstream.json.sse ('));
    expect(out).toMatch(/^2 files: 1 fails \(--fail-on error,end\)\.$/m);
  });

  it('passes when every file passes', async () => {
    const { code, out } = await run(['inspect', 'json_stream.json.sse', 'multi_agent.json.sse']);
    expect(code).toBe(0);
    expect(out).toMatch(/^2 files: 0 fail \(--fail-on error,end\)\.$/m);
  });

  it('expands globs, sorted, and prints an array of reports with --json', async () => {
    const { code, out } = await run(['inspect', '--json', '--fail-on', 'none', '*_resume*.sse']);
    expect(code).toBe(0);
    const reports = JSON.parse(out) as { file: string; status: { kind: string } }[];
    expect(reports.map((r) => r.file)).toEqual([
      'frontend_tools_resume.agent_base.json.sse',
      'frontend_tools_resume.json.sse',
      'frontend_tools_resume.raw.sse',
      'frontend_tools_resume.xml.sse',
    ]);
    expect(reports.every((r) => typeof r.status.kind === 'string')).toBe(true);
  });

  it('reports the files around one that cannot be read, says why, and exits 2', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inspect-many-'));
    try {
      await writeFile(join(dir, 'empty.sse'), '');
      const empty = join(dir, 'empty.sse');
      const files = [fixturePath('json_stream.json.sse'), empty, fixturePath('error_midstream.json.sse')];
      const text = await run(['inspect', ...files]);
      expect(text.code).toBe(2);
      expect(text.err).toBe(`stream-inspector inspect: ${empty}: the file is empty\n`);
      expect(text.out).toContain('json_stream.json.sse (sse)');
      expect(text.out).toContain('error_midstream.json.sse (sse)');
      expect(text.out).toMatch(/^3 files: 1 fails \(--fail-on error,end\), 1 cannot be read\.$/m);
      const json = await run(['inspect', '--json', ...files]);
      expect(json.code).toBe(2);
      const reports = JSON.parse(json.out) as { file: string; error?: string; status?: object }[];
      expect(reports.map((r) => r.file)).toEqual(files);
      expect(reports[1]).toEqual({ file: empty, error: `${empty}: the file is empty` });
      expect(reports[2]?.status).toBeDefined();
      // frames goes on past it too, its line saying why.
      const frames = await run(['frames', '--json', ...files]);
      expect(frames.code).toBe(2);
      expect(frames.err).toBe(`stream-inspector frames: ${empty}: the file is empty\n`);
      const framed = frames.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { file: string; error?: string; end?: boolean });
      expect(framed).toContainEqual({ file: empty, error: `${empty}: the file is empty` });
      expect(framed.filter((l) => l.end).map((l) => l.file)).toEqual([files[0], files[2]]);
      // Alone, the file is the run's error: nothing on stdout, as before.
      expect(await run(['inspect', '--json', empty])).toEqual({
        code: 2,
        out: '',
        err: `stream-inspector inspect: ${empty}: the file is empty\n`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the one-object JSON shape for one file', async () => {
    const report = JSON.parse((await run(['inspect', '--json', 'json_stream.json.sse'])).out) as { file: string };
    expect(report.file).toBe('json_stream.json.sse');
  });

  it('refuses a glob that matches nothing and stdin twice, with exit 2', async () => {
    const refused = async (args: string[], message: string) => {
      const { code, err } = await run(args);
      expect(code).toBe(2);
      expect(err).toContain(message);
    };
    await refused(['inspect', 'nothing-*.sse'], 'no file matches nothing-*.sse');
    await refused(['inspect', '-', '-'], '- (stdin) can be read once');
    await refused(['inspect'], 'expected a FILE');
  });
});
