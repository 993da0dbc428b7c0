import { describe, expect, it } from 'vitest';
import { agUi, decodeAgUi, endLabel, inRun, rulesOf } from './test-events';

const start = (messageId: string) => agUi('TEXT_MESSAGE_START', { messageId, role: 'assistant' });
const content = (messageId: string, delta: string) => agUi('TEXT_MESSAGE_CONTENT', { messageId, delta });
const end = (messageId: string) => agUi('TEXT_MESSAGE_END', { messageId });
const texts = (events: string[]) =>
  decodeAgUi(events)
    .blocks.filter((b) => b.kind === 'text')
    .map((b) => [b.content, b.status]);

describe('text and reasoning messages', () => {
  it('several messages of one run are blocks of their own, in order', () => {
    expect(texts(inRun(start('a'), content('a', 'One'), end('a'), start('b'), content('b', 'Two'), end('b')))).toEqual([
      ['One', 'complete'],
      ['Two', 'complete'],
    ]);
  });

  it('interleaved messages are never merged: the block splits where the other message speaks', () => {
    const result = decodeAgUi(
      inRun(start('a'), content('a', 'A1 '), start('b'), content('b', 'B1 '), content('a', 'A2'), end('a'), end('b')),
    );
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual(['A1 ', 'B1 ', 'A2']);
    expect(endLabel(result)).toBe('done');
  });

  it('a message reopened after its end goes on in a new block (the specification allows it)', () => {
    const result = decodeAgUi(
      inRun(start('a'), content('a', 'Hello'), end('a'), start('a'), content('a', ' again'), end('a')),
    );
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual(['Hello', ' again']);
  });

  it('chunks expand into a message: the first carries the id, a run event closes the last', () => {
    const result = decodeAgUi(
      inRun(
        agUi('TEXT_MESSAGE_CHUNK', { messageId: 'c1', role: 'assistant', delta: 'Chunks ' }),
        agUi('TEXT_MESSAGE_CHUNK', { delta: 'expand.' }),
        agUi('TEXT_MESSAGE_CHUNK', { messageId: 'c2', delta: 'Next.' }),
        agUi('REASONING_MESSAGE_CHUNK', { messageId: 'r1', delta: 'thinking' }),
      ),
    );
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks.filter((b) => b.kind !== 'message').map((b) => [b.kind, b.content, b.status])).toEqual([
      ['text', 'Chunks expand.', 'complete'],
      ['text', 'Next.', 'complete'],
      ['thinking', 'thinking', 'complete'],
    ]);
  });

  it('the retired THINKING_TEXT_MESSAGE_* events are reasoning too', () => {
    const result = decodeAgUi(
      inRun(
        agUi('THINKING_START', { title: 'Plan' }),
        agUi('THINKING_TEXT_MESSAGE_START'),
        agUi('THINKING_TEXT_MESSAGE_CONTENT', { delta: 'Step one.' }),
        agUi('THINKING_TEXT_MESSAGE_END'),
        agUi('THINKING_END'),
      ),
    );
    expect(rulesOf(result)).toEqual([]);
    expect(result.blocks[0]).toMatchObject({ kind: 'thinking', content: 'Step one.', status: 'complete' });
  });
});

describe('provider.block-not-started (AG-UI messages)', () => {
  it('fires for content no start opened and keeps its text in a block of its own, closed at RUN_FINISHED without a second finding', () => {
    const result = decodeAgUi(inRun(content('ghost', 'kept')));
    expect(rulesOf(result)).toEqual(['provider.block-not-started']);
    expect(result.blocks[0]).toMatchObject({ kind: 'text', content: 'kept', status: 'complete' });
  });

  it('fires for an end no start opened, and for a first chunk without its messageId', () => {
    expect(rulesOf(decodeAgUi(inRun(end('ghost'))))).toEqual(['provider.block-not-started']);
    const chunk = decodeAgUi(inRun(agUi('TEXT_MESSAGE_CHUNK', { delta: 'orphan' })));
    expect(rulesOf(chunk)).toEqual(['provider.block-not-started']);
    expect(chunk.blocks[0]).toMatchObject({ kind: 'text', content: 'orphan' });
  });

  it('does not fire for content of an open message', () => {
    expect(rulesOf(decodeAgUi(inRun(start('a'), content('a', 'x'), end('a'))))).toEqual([]);
  });
});

describe('provider.block-started-twice, provider.delta-after-stop, provider.block-not-stopped (AG-UI messages)', () => {
  it('a start for an open message: reported, and what follows is appended to it', () => {
    const result = decodeAgUi(inRun(start('a'), content('a', 'one '), start('a'), content('a', 'two'), end('a')));
    expect(rulesOf(result)).toEqual(['provider.block-started-twice']);
    expect(texts(inRun(start('a'), content('a', 'one '), start('a'), content('a', 'two'), end('a')))).toEqual([
      ['one two', 'complete'],
    ]);
  });

  it('content after the message ended: reported, kept in a block of its own', () => {
    const result = decodeAgUi(inRun(start('a'), content('a', 'done'), end('a'), content('a', 'late')));
    expect(rulesOf(result)).toEqual(['provider.delta-after-stop']);
    expect(result.blocks.filter((b) => b.kind === 'text').map((b) => b.content)).toEqual(['done', 'late']);
  });

  it('a message still open at RUN_FINISHED: reported at its start and closed there', () => {
    const result = decodeAgUi(inRun(start('a'), content('a', 'never ended')));
    expect(rulesOf(result)).toEqual(['provider.block-not-stopped']);
    expect(result.diagnostics[0]?.at.frame).toBe(1);
    expect(endLabel(result)).toBe('done');
  });

  it('none of them for a message that starts, streams and ends', () => {
    expect(rulesOf(decodeAgUi(inRun(start('a'), content('a', 'ok'), end('a'))))).toEqual([]);
  });
});

describe('provider.invalid-event (AG-UI)', () => {
  it('fires for content whose delta is no string, and for data that is no event object', () => {
    const result = decodeAgUi(
      inRun(start('a'), agUi('TEXT_MESSAGE_CONTENT', { messageId: 'a', delta: 5 }), end('a'), 'data: [1]\n\n'),
    );
    expect(rulesOf(result)).toEqual(['provider.invalid-event', 'provider.invalid-event']);
  });

  // The SDKs' clients reject an event whose type they do not know (@ag-ui/client's event
  // validation, the Python SDK's EventType): a type is never matched without its case.
  const usage = { name: 'usage', value: { inputTokens: 10, outputTokens: 5 } };
  const summary = (result: ReturnType<typeof decodeAgUi>) =>
    JSON.parse(result.blocks.find((b) => b.kind === 'message')?.content ?? '{}') as Record<string, unknown>;

  it('fires for a known type spelled in another case (Custom): kept as it came, not decoded as CUSTOM', () => {
    const result = decodeAgUi(inRun(agUi('Custom', usage), agUi('Custom', usage)));
    expect(rulesOf(result)).toEqual(['provider.invalid-event']);
    expect(result.diagnostics[0]?.message).toContain('the one meant is spelled CUSTOM');
    expect(result.envelopes.filter((e) => e.type === 'Custom')).toHaveLength(2);
    expect(summary(result)['usage']).toBeUndefined();
    expect(endLabel(result)).toBe('done');
  });

  it('must not: CUSTOM is no finding, and a type no event spells is only unknown (info)', () => {
    expect(rulesOf(decodeAgUi(inRun(agUi('CUSTOM', usage))))).toEqual([]);
    expect(rulesOf(decodeAgUi(inRun(agUi('USAGE_METADATA', { inputTokens: 1 }))))).toEqual(['provider.unknown-event']);
  });
});
