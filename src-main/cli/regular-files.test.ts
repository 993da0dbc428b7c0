import { execFileSync } from 'node:child_process';
import { copyFile, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSource } from '../services/importers';
import { fixturePath } from '../testing/fixtures';
import { runCli } from './test-io';

/**
 * Only regular files are read: a path that is a symlink to /dev/zero was read whole (7 GB in
 * 30 s), a FIFO blocked forever. Each now fails at once with a clear error, named or globbed,
 * from every command that reads a file the user names, and from the app's importers.
 */

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-regular-'));
  await symlink('/dev/zero', join(dir, 'zero.sse'));
  execFileSync('mkfifo', [join(dir, 'fifo.sse')]);
  await copyFile(fixturePath('example_1.json.sse'), join(dir, 'good.sse'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const run = (args: string[]) => runCli(args, { cwd: dir });

describe.skipIf(process.platform === 'win32')('files that are not regular files', () => {
  it.each([
    ['zero.sse', 'a character device'],
    ['fifo.sse', 'a FIFO (named pipe)'],
  ])('inspect, blocks and frames refuse %s at once: it is %s', async (name, kind) => {
    for (const args of [
      ['inspect', name],
      ['blocks', name],
      ['frames', '--json', name],
    ]) {
      const { code, err } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toContain(`${join(dir, name)} is ${kind}, not a regular file`);
    }
  });

  it('a glob that matches one stops before reading any, and names it', async () => {
    const { code, out, err } = await run(['inspect', '*.sse']);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(/\*\.sse matches .*(fifo|zero)\.sse, which is a (FIFO|character device)/);
  });

  it('record -d @FILE, answer --results and check --spec read regular files only', async () => {
    const body = await run(['record', 'http://127.0.0.1:9/agent/run', '-d', '@zero.sse', '-o', 'out.recording']);
    expect(body.code).toBe(2);
    expect(body.err).toContain('is a character device, not a regular file');
    const spec = await run(['check', '--spec', 'fifo.sse', 'good.sse']);
    expect(spec.code).toBe(2);
    expect(spec.err).toContain('is a FIFO (named pipe), not a regular file');
    const answer = await run(['answer', 'good.sse', '--results', 'fifo.sse']);
    expect(answer.code).toBe(2);
    expect(answer.err).toContain('is a FIFO (named pipe), not a regular file');
  });

  it("the app's importers refuse them too", async () => {
    await expect(openSource(join(dir, 'fifo.sse'))).rejects.toThrow('is a FIFO (named pipe), not a regular file');
    await expect(openSource(join(dir, 'zero.sse'))).rejects.toThrow('is a character device, not a regular file');
    await expect(openSource(join(dir, 'good.sse'))).resolves.toMatchObject({ kind: 'sse' });
  });
});
