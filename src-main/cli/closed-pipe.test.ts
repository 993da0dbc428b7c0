import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '../testing/fixtures';
import { CLOSED_PIPE_STATUS } from './main';

describe('a reader that closes stdout early (`… | head`)', () => {
  it('ends the CLI quietly with the SIGPIPE status, not a crash with a stack trace', async () => {
    // The read end is closed before the CLI has started, so its first write meets a closed pipe.
    const child = spawn(
      process.execPath,
      ['bin/stream-inspector.mjs', 'inspect', '--json', fixturePath('example_1.json.sse')],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.destroy();
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
    const [status] = (await once(child, 'exit')) as [number | null];
    expect(err).toBe('');
    expect(status).toBe(CLOSED_PIPE_STATUS);
  }, 60_000);
});
