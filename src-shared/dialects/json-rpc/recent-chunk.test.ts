import { describe, expect, it, test } from 'vitest';
import { RecentArtifactChunk } from './recent-chunk';
import { decodeEvents, rawEvent } from './test-events';

const chunk = (text: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'artifact-update',
      taskId: 't',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text }] },
      append: true,
      lastChunk: false,
      ...extra,
    },
  });

describe('RecentArtifactChunk', () => {
  const learnt = (): RecentArtifactChunk<string> => {
    const reader = new RecentArtifactChunk<string>();
    reader.learn(chunk('first'), 'first', 'meaning');
    return reader;
  };

  test.each(['next', '', 'a "quoted" word', 'line\nbreak', 'back\\slash', '日本語 😀', '"text":"'])(
    'reads the same chunk with the text %j as JSON.parse does',
    (text) => {
      const reader = learnt();
      expect(reader.read(chunk(text))).toBe(true);
      expect(reader.text).toBe(text);
      expect(reader.meaning).toBe('meaning');
    },
  );

  test.each([
    ['the last chunk', chunk('x', { lastChunk: true })],
    ['another artifact', chunk('x').replace('"artifactId":"a"', '"artifactId":"b"')],
    ['another id', chunk('x').replace('"id":1', '"id":2')],
    ['a member after the text', chunk('x').replace('"}]}', '","extra":1}]}')],
    ['a raw quote in the text', chunk('x').replace('"text":"x"', '"text":"x"y"')],
    ['a raw control character in the text', chunk('x').replace('"text":"x"', '"text":"x\ty"')],
    ['a second text part', chunk('x').replace('}]}', '},{"kind":"text","text":"y"}]}')],
  ])('declines %s', (_name, data) => {
    expect(learnt().read(data)).toBe(false);
  });

  it('learns nothing from an event whose last text member is not the text it decoded to', () => {
    const reader = new RecentArtifactChunk<string>();
    reader.learn(chunk('first'), 'other', 'meaning');
    expect(reader.read(chunk('next'))).toBe(false);
  });
});

describe('chunks read without JSON.parse decode as parsed ones', () => {
  const event = (text: string, extra: Record<string, unknown> = {}): string => rawEvent(chunk(text, extra));
  const start = rawEvent(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: {
        kind: 'artifact-update',
        taskId: 't',
        artifact: { artifactId: 'a', name: 'doc', parts: [{ kind: 'text', text: 'A' }] },
      },
    }),
  );
  const end = rawEvent(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { kind: 'status-update', taskId: 't', status: { state: 'completed' }, final: true },
    }),
  );

  it('every chunk in its artifact block, escapes and all, the last one too', () => {
    const texts = ['b', 'c "d"', '\n', 'é😀', 'e'];
    const { blocks, diagnostics } = decodeEvents([
      start,
      ...texts.map((t) => event(t)),
      event('!', { lastChunk: true }),
      end,
    ]);
    expect(diagnostics).toEqual([]);
    expect(blocks.map((b) => [b.kind, b.name ?? '', b.content])).toEqual([
      ['text', 'doc', `A${texts.join('')}!`],
      ['message', '', expect.any(String) as string],
    ]);
  });

  it('a chunk after the stream ended is not appended, but reported', () => {
    const { blocks, diagnostics } = decodeEvents([start, event('b'), event('c'), end, event('late')]);
    expect(diagnostics.map((d) => d.rule)).toEqual(['json-rpc.after-end']);
    expect(blocks.find((b) => b.name === 'doc')?.content).toBe('Abc');
  });
});
