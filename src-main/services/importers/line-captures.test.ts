import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerFixturePath, readExternalFixture } from '../../testing/fixtures';
import { readProviderFixture } from '../../testing/provider-streams';
import { openSource } from './index';
import { concatChunks, decodeSource, readLegs } from './testing';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'line-captures-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Captures of a line-framed wire: the AI SDK's v4 data stream, one `CODE:JSON` part per line. */
describe('line-framed captures', () => {
  it('a data stream file opens as a line capture of exactly its bytes, and decodes as the AI SDK dialect', async () => {
    const source = await openSource(providerFixturePath('ai-sdk-ui/parallel-tools.txt'));
    expect(source.kind).toBe('lines');
    expect(source.notes.join(' ')).toContain('line-framed');
    const [chunks = []] = await readLegs(source);
    expect(concatChunks(chunks).equals(Buffer.from(readProviderFixture('ai-sdk-ui/parallel-tools.txt')))).toBe(true);
    const decoded = await decodeSource(source);
    expect(decoded.formats).toEqual(['ai-sdk-ui']);
    expect(decoded.diagnostics).toEqual([]);
  });

  it('a curl -i capture whose head announces the data stream keeps the head as the response', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain; charset=utf-8\r\nx-vercel-ai-data-stream: v1\r\n\r\n';
    const body = readExternalFixture('vercel-ai/data-stream-text.txt');
    const path = join(dir, 'curl-i.txt');
    await writeFile(path, Buffer.concat([Buffer.from(head), body]));
    const source = await openSource(path);
    expect(source.kind).toBe('lines');
    expect(source.legs[0]?.response?.headers).toContainEqual(['x-vercel-ai-data-stream', 'v1']);
    expect((await decodeSource(source)).blocks.find((b) => b.kind === 'text')?.content).toBe('Hello, world!');
  });

  it('must not: text that merely has a colon is no capture', async () => {
    const path = join(dir, 'notes.txt');
    await writeFile(path, 'Note: this is not a stream\n');
    await expect(openSource(path)).rejects.toThrow(/not a recording, SSE capture/);
  });
});
