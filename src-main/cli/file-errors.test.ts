import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from './main';
import { memoryIo } from './test-io';

describe('a file the CLI cannot read', () => {
  it('is named first, then why, in plain words (no errno code, no syscall)', async () => {
    const missing = join(tmpdir(), 'stream-inspector-no-such-file.sse');
    const io = memoryIo();
    expect(await main(['inspect', missing], io)).toBe(2);
    expect(io.err()).toBe(`stream-inspector inspect: ${missing}: no such file or directory\n`);
  });
});
