import { describe, expect, it } from 'vitest';
import { createSessionStore } from '../store/session-store';
import { sessionAsSource } from './replay-source';

describe('sessionAsSource', () => {
  it("gives a session's legs with their chunks and receive times, readable again for each replay from the start", async () => {
    const data = createSessionStore({
      id: 's',
      title: 't',
      source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
      createdAt: 0,
    });
    const leg = data.openLeg('run', { method: 'GET', url: 'http://127.0.0.1/', headers: [], body: null }, 5).index;
    data.push(leg, new TextEncoder().encode('data: a\n\n'), 10);
    data.push(leg, new TextEncoder().encode('data: b\n\n'), 20);
    data.endLeg(leg, { reason: 'complete' });
    const action = {
      kind: 'tool-results' as const,
      at: 30,
      leg: 0,
      body: '{}',
      url: 'http://127.0.0.1/agent/tool_results',
    };
    const source = sessionAsSource(data, [action]);
    expect(source.actions).toEqual([action]);
    expect(source.legs).toHaveLength(1);
    expect(source.legs[0]).toMatchObject({
      index: 0,
      startedAt: 5,
      chunkCount: 2,
      byteCount: 18,
      outcome: { reason: 'done' },
    });
    for (let pass = 0; pass < 2; pass++) {
      const chunks: [string, number][] = [];
      for await (const chunk of source.legs[0]!.chunks)
        chunks.push([new TextDecoder().decode(chunk.bytes), chunk.receivedAt]);
      expect(chunks).toEqual([
        ['data: a\n\n', 10],
        ['data: b\n\n', 20],
      ]);
    }
  });
});
