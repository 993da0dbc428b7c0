import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fixturePath, readFixture } from '../../testing/fixtures';
import { main } from '../main';
import { memoryIo, servingIo } from '../test-io';

describe('stream-inspector serve', () => {
  test('prints the URL, serves the file byte for byte until interrupted, then stops', async () => {
    const { io, ready, interrupt } = servingIo();
    const exit = main(
      ['serve', fixturePath('frontend_tools.raw.sse'), '--port', '0', '--speed', 'fast', '--rechunk', 'byte'],
      io,
    );
    await ready;
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())?.[1] ?? '';
    expect(url).not.toBe('');
    expect(io.out()).toContain('(sse, 1 leg)');
    expect(io.out()).toContain('re-chunked to one byte per write');
    expect(io.out()).toContain('Web pages of other origins may not read it');

    const response = await fetch(`${url}/agent/run`, { method: 'POST', body: '{"user_prompt":"hi"}' });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(readFixture('frontend_tools.raw.sse')))).toBe(
      true,
    );

    interrupt();
    expect(await exit).toBe(0);
    await expect(fetch(`${url}/agent/run`)).rejects.toThrow();
  });

  test('says it keeps the recorded chunks without calling the stream cut', async () => {
    const { io, ready, interrupt } = servingIo();
    const exit = main(['serve', fixturePath('json_stream.json.sse'), '--port', '0', '--speed', 'fast'], io);
    await ready;
    expect(io.out()).toMatch(/leg 0, as fast as possible, in the chunks it was recorded in\n/);
    expect(io.out()).not.toMatch(/\bcut\b/);
    interrupt();
    expect(await exit).toBe(0);
  });

  test.each([
    [['--speed', '50'], '--speed takes a factor from 0.25 to 20, or fast'],
    [['--speed', 'slow'], "--speed takes a factor from 0.25 to 20, or fast, not 'slow'"],
    [['--rechunk', '0'], '--rechunk takes N (bytes, 1 or more) or byte'],
    [['--port', 'http'], '--port takes a number from 0 to 65535'],
    [['--har-entry', 'x'], '--har-entry takes an entry number'],
    [['--har-entry', '0'], 'frontend_tools.raw.sse (sse) is not one'],
    [
      ['--allow-origin', 'localhost:5173'],
      "--allow-origin takes an origin such as http://localhost:5173 (or * for any page), not 'localhost:5173'",
    ],
    [['--allow-origin', 'http://localhost:5173/app'], '--allow-origin takes an origin'],
  ])('rejects %j with a usage error', async (args, message) => {
    const io = memoryIo();
    expect(await main(['serve', fixturePath('frontend_tools.raw.sse'), ...args], io)).toBe(2);
    expect(io.err()).toContain(message);
  });

  test('refuses standard input saying why, and no file or two as a count', async () => {
    const stdin = memoryIo('data: x\n\n');
    expect(await main(['serve', '-'], stdin)).toBe(2);
    expect(stdin.err()).toBe(
      'stream-inspector serve: serve replays a FILE, read again for each request; standard input (-) can be read only once\n',
    );
    const two = memoryIo();
    expect(await main(['serve', 'a.sse', 'b.sse'], two)).toBe(2);
    expect(two.err()).toContain('expected exactly one FILE (a recording, capture, envelope file or HAR)');
  });

  test('--allow-origin lets the pages of that origin read the replay, and no other', async () => {
    const { io, ready, interrupt } = servingIo();
    const exit = main(
      [
        'serve',
        fixturePath('frontend_tools.raw.sse'),
        '--port',
        '0',
        '--speed',
        'fast',
        '--allow-origin',
        'http://localhost:5173',
      ],
      io,
    );
    await ready;
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(io.out())?.[1] ?? '';
    expect(io.out()).toContain('Web pages of http://localhost:5173 may read it');
    const allowed = await fetch(`${url}/agent/run`, { headers: { origin: 'http://localhost:5173' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    await allowed.arrayBuffer();
    const other = await fetch(`${url}/agent/run`, { headers: { origin: 'http://127.0.0.1:9999' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    await other.arrayBuffer();
    interrupt();
    expect(await exit).toBe(0);
  });

  test('reports a file that is not a source, naming what was expected', async () => {
    // Binary data (an ELF header): no importer reads it. (A pretty-printed JSON file such as
    // the fixtures' MANIFEST.json is a source now: one event, said to be no stream.)
    const dir = await mkdtemp(join(tmpdir(), 'serve-'));
    const file = join(dir, 'program.bin');
    await writeFile(file, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0]));
    try {
      const io = memoryIo();
      expect(await main(['serve', file, '--port', '0'], io)).toBe(2);
      expect(io.err()).toContain(
        'not a recording, SSE capture, NDJSON/JSON of envelopes or Anthropic events, NDJSON of stream events, a streamed JSON array of API responses, or HAR',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
