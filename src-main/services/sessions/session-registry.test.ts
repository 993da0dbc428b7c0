import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecorder } from '../recording/recorder';
import type { SessionBatch, SessionSummary } from '../../../src-shared/contract/payloads';
import { MAX_BATCH_ROWS } from '../../../src-shared/contract/inspector';
import { createSessionRegistry, type SessionRegistry } from './session-registry';
import { waitFor } from './service-testing';

let registry: SessionRegistry | undefined;
afterEach(() => {
  registry?.dispose();
  registry = undefined;
});

const storeOf = (id: string) =>
  registry!.newStore({
    id,
    title: id,
    source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
    createdAt: 0,
  });
const utf8 = (text: string) => new TextEncoder().encode(text);

describe('session registry', () => {
  it('announces the list once for every change made in the same turn, with every open session', async () => {
    registry = createSessionRegistry({});
    const lists: SessionSummary[][] = [];
    registry.events.sessionsChanged.event((list) => lists.push(list));
    registry.register(storeOf('a'), {});
    registry.register(storeOf('b'), {});
    registry.announce();
    expect(lists).toHaveLength(0);
    await Promise.resolve();
    expect(lists).toHaveLength(1);
    expect(lists[0]?.map((s) => s.id)).toEqual(['a', 'b']);
  });

  it('finds a session by id, and names an unknown one in its refusal', () => {
    registry = createSessionRegistry({});
    const rt = registry.register(storeOf('a'), {});
    expect(registry.runtimeOf('a')).toBe(rt);
    expect(() => registry!.runtimeOf('gone')).toThrow("Unknown session 'gone' (it may have been closed)");
  });

  /** A registry batching every 5 ms, the batches it sends, and a registered session with a leg open. */
  const batching = () => {
    registry = createSessionRegistry({ batchIntervalMs: 5 });
    const batches: SessionBatch[] = [];
    registry.events.batches.event((batch) => batches.push(batch));
    const data = storeOf('a');
    registry.register(data, {});
    return { registry, batches, data, leg: data.openLeg('run', null, 0).index };
  };

  it("turns what a registered session's store decodes into batches, without anyone asking", async () => {
    const { batches, data, leg } = batching();
    data.push(leg, utf8('data: {"type":"text","agent":"a","final":false,"delta":"hi"}\n\n'), 1);
    const batch = await waitFor(() => batches[0], 'a batch');
    expect(batch).toMatchObject({ sessionId: 'a', start: 0, total: 1 });
  });

  it('holds batches back while a client cannot take them, then sends everything that changed meanwhile, a batch at a time', async () => {
    const { registry, batches, data, leg } = batching();
    const events = (from: number, to: number) => {
      let text = '';
      for (let i = from; i < to; i++) text += `data: {"type":"text","agent":"a","final":false,"delta":"${i} "}\n\n`;
      return utf8(text);
    };
    data.push(leg, events(0, 10), 1);
    await waitFor(() => batches[0], 'the first batch');
    registry.batcher.hold(true);
    // Held across a leg's end too, which flushes at once otherwise.
    data.push(leg, events(10, 12_010), 2);
    registry.batcher.flush(data);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(batches).toHaveLength(1);
    registry.batcher.hold(false);
    await waitFor(() => (batches.at(-1)?.total === 12_010 && !data.batchPending ? true : undefined), 'the rest');
    const rows = batches.map((b) => b.columns.receivedAt.length);
    expect(rows.reduce((a, b) => a + b, 0)).toBe(12_010);
    expect(Math.max(...rows)).toBeLessThanOrEqual(MAX_BATCH_ROWS);
    expect(batches.map((b) => b.start)).toEqual(rows.map((_, i) => rows.slice(0, i).reduce((a, b) => a + b, 0)));
  });

  it('ends a session complete only when the leg completed and finishing it kept everything', () => {
    registry = createSessionRegistry({});
    expect(registry.endState('complete', undefined)).toBe('complete');
    expect(registry.endState('stopped', undefined)).toBe('stopped');
    expect(registry.endState('aborted', undefined)).toBe('failed');
    expect(registry.endState('complete', { kind: 'internal', message: 'disk full' })).toBe('failed');
  });

  it('settles a leg: finishes the store and closes its recorder, unless the run waits for tools', async () => {
    registry = createSessionRegistry({});
    const dir = await mkdtemp(join(tmpdir(), 'registry-'));
    try {
      const path = join(dir, 'a.recording');
      const rt = registry.register(storeOf('a'), { recorder: await createRecorder(path, { flushIntervalMs: 60_000 }) });
      rt.data.openLeg('run', null, 0);
      rt.data.endLeg(0, { reason: 'complete' });
      expect(await registry.settleSession(rt)).toBeUndefined();
      expect(rt.data.finished).toBe(true);
      expect(rt.recorder).toBeNull();
      expect(await readFile(path, 'utf8')).toContain('agent-stream-inspector-recording');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
