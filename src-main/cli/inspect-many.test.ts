import { dirname } from 'node:path';
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
