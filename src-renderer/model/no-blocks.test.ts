import { describe, expect, it } from 'vitest';
import { noBlocksMessage } from './no-blocks';

const ended = { state: 'complete', awaitingTools: false, envelopes: 6 } as const;
const file = { ...ended, source: { kind: 'file', path: '/tmp/ticks.sse', importer: 'sse' } } as const;
const live = { ...ended, source: { kind: 'live', method: 'GET', url: 'http://h/feed' } } as const;
const fallback = { format: 'json-events', detection: { by: 'fallback', data: 'json' } } as const;

describe('the blocks view with no block', () => {
  it('says a session that failed before any envelope failed, not that the Diagnostics tab says why', () => {
    const failure = { kind: 'network', message: 'Connection refused', code: 'ECONNREFUSED' } as const;
    const failed = { ...live, state: 'failed', envelopes: 0, failure, format: null } as const;
    expect(noBlocksMessage(failed, true, false)).toEqual({
      title: 'No blocks in this session',
      text: 'The source failed before any envelope could be decoded: the message above says why.',
    });
  });

  it('says a stream no dialect recognised claims no block, and where its format is chosen', () => {
    expect(noBlocksMessage({ ...fallback, ...file }, true, false)).toEqual({
      title: 'No blocks: decoded as JSON events',
      text: 'No dialect recognised this stream: its events are in the Timeline as they came, and no block is claimed from them. If you know its format, choose it in "Decode as…" above.',
    });
    expect(noBlocksMessage({ ...fallback, ...live }, true, false).text).toContain('choose it in "Decode as…" above.');
    // A run that waits for its tool answers is not decoded again: its next run is.
    expect(noBlocksMessage({ ...fallback, ...live, awaitingTools: true }, true, false).text).toContain(
      'choose it in the connect form\'s "Decode as", and run it again.',
    );
  });

  it('says generic JSON events the user chose claim no block, without saying nothing recognised them', () => {
    const chosen = noBlocksMessage(
      { ...file, format: 'json-events', detection: { by: 'chosen', data: 'json' } },
      true,
      false,
    );
    expect(chosen.text).toBe(
      'As JSON events, each event is in the Timeline as it came and no block is claimed from them. Another format can be chosen in "Decode as…" above.',
    );
  });

  it('calls plain-text events text events, not JSON events', () => {
    const text = noBlocksMessage(
      { ...file, format: 'json-events', detection: { by: 'fallback', data: 'text' } },
      true,
      false,
    );
    expect(text.title).toBe('No blocks: decoded as text events');
    const chosen = noBlocksMessage(
      { ...file, format: 'json-events', detection: { by: 'chosen', data: 'text' } },
      true,
      false,
    );
    expect(chosen.text).toMatch(/^As text events, each event/);
  });

  it('must not: a session of a dialect that found nothing to reconstruct, or one still loading or streaming, says so', () => {
    expect(noBlocksMessage({ ...file, format: 'json' }, true, false).title).toBe('No blocks in this session');
    expect(noBlocksMessage({ ...file, format: null }, true, false).title).toBe('No blocks in this session');
    expect(noBlocksMessage({ ...fallback, ...file }, false, false).title).toBe('Loading blocks…');
    expect(noBlocksMessage({ ...fallback, ...live }, true, true).title).toBe('Waiting for the first block…');
  });
});
