import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../testing/fixtures';
import { main as fromSource } from './main';
import { memoryIo } from './test-io';

/**
 * The CLI bundle (scripts/build-cli.mjs) is what `stream-inspector` runs after `npm install`:
 * it must behave exactly as the sources do. Built into a temp folder so the project's own
 * out/cli is never rebuilt under a test that is running it.
 */
let outdir: string;
let fromBundle: typeof fromSource;

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'cli-bundle-'));
  await promisify(execFile)(process.execPath, ['scripts/build-cli.mjs', '--outdir', outdir]);
  ({ main: fromBundle } = (await import(pathToFileURL(join(outdir, 'main.mjs')).href)) as { main: typeof fromSource });
}, 60_000);

afterAll(async () => {
  await rm(outdir, { recursive: true, force: true });
});

const run = async (main: typeof fromSource, args: string[]) => {
  const io = memoryIo();
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
};

describe('the CLI bundle', () => {
  it.each([
    [['--help']],
    [['--version']],
    [['inspect', '--json', fixturePath('multi_agent.json.sse')]],
    [['inspect', fixturePath('error_midstream.json.sse')]],
    [['blocks', '--json', fixturePath('probe_citations.xml.sse')]],
    [['frames', '--json', fixturePath('frontend_tools.raw.sse')]],
    [['inspect', '--format', 'nonsense', '-']],
  ])('gives the same output and exit code as the sources: %j', async (args) => {
    expect(await run(fromBundle, args)).toEqual(await run(fromSource, args));
  });

  it('lists every source file it was built from, so the launcher can tell when it is stale', async () => {
    const inputs = JSON.parse(await readFile(join(outdir, 'inputs.json'), 'utf8')) as string[];
    expect(inputs).toContain('src-main/cli/main.ts');
    expect(inputs).toContain('src-main/cli/commands/inspect.ts');
    expect(inputs.every((file) => !file.startsWith('..') && !file.includes('node_modules'))).toBe(true);
  });
});
