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

  it('is standard input that brought nothing: refused as an empty file is (exit 2), never a stream that passed', async () => {
    for (const args of [
      ['inspect', '-'],
      ['inspect', '--json', '-'],
      ['blocks', '-'],
      ['frames', '--json', '-'],
    ]) {
      const io = memoryIo('');
      expect(await main(args, io)).toBe(2);
      expect(io.err()).toBe(`stream-inspector ${args[0]}: - (stdin): standard input is empty\n`);
      expect(io.out()).toBe('');
    }
    // One byte is a stream: it is reported.
    const io = memoryIo('\n');
    expect(await main(['inspect', '-'], io)).toBe(0);
    expect(io.out()).toMatch(/^- \(stdin\): undetected · 1 byte · 0 events/);
    // Each empty section says so.
    expect(io.out()).toContain('\nEnvelopes by type: none\n');
    expect(io.out()).toContain('\nDiagnostics: none\n');
  });
});
