import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BREAKPOINT_TYPE_MAX,
  REPLAY_TYPES_MAX,
  ReplayState as ReplayStateSchema,
  type ReplayState,
} from '../../../../src-shared/contract/payloads';
import { fixturePath } from '../../../testing/fixtures';
import { useReplayHarness } from './replay-testing';
import { waitFor, writeRecordingFile } from '../service-testing';
import type { SessionService } from '../session-service';

const t = useReplayHarness();

describe('replay breakpoints', () => {
  const control = (sessionId: string, action: Parameters<SessionService['replayControl']>[0]['action']) =>
    t.service.replayControl({ sessionId, action });
  /** Types of the source's envelopes by seq. */
  const typesOf = async (id: string) =>
    (await t.service.getRows({ sessionId: id, start: 0, count: 100_000 })).rows.map((r) => r.type);
  /** Plays until the replay stops (at a hit or the end) and returns its state then. */
  async function playToStop(id: string): Promise<ReplayState> {
    const from = t.states.length;
    await control(id, { kind: 'play' });
    return waitFor(
      () => t.states.slice(from).find((s) => s.sessionId === id && !s.playing && (s.hit !== undefined || s.finished)),
      'the replay to stop',
    );
  }

  it('pauses exactly at the first envelope of each run of a type; Continue goes to the next; the session shows up to the hit', async () => {
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    const types = await typesOf(source);
    const starts = types.flatMap((t, i) => (t === 'tool_call' && types[i - 1] !== 'tool_call' ? [i] : []));
    expect(starts.length).toBeGreaterThan(1);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true, instant: true });
    const set = await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 'tool_call' }] });
    expect(set.breakpoints).toEqual([{ kind: 'type', type: 'tool_call' }]);
    expect(set.types).toEqual(expect.arrayContaining(['text', 'tool_call', 'meta_init']));
    for (const seq of starts) {
      const stopped = await playToStop(id);
      expect(stopped).toMatchObject({
        position: seq + 1,
        hit: { breakpoint: { kind: 'type', type: 'tool_call' }, envelope: seq },
        finished: false,
      });
      expect(await typesOf(id)).toEqual(types.slice(0, seq + 1));
      expect((await t.summaryOf(id)).replayPaused).toBe(true);
    }
    // No hit left: Continue plays to the end; the hit is gone from the state.
    const end = await playToStop(id);
    expect(end).toMatchObject({ finished: true, position: types.length });
    expect(end.hit).toBeUndefined();
  });

  it('an agent-block breakpoint pauses at every block the agent starts, however its envelopes interleave', async () => {
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    const sub = '44444444-4444-4444-8444-444444444444';
    const blocks = await t.service.getBlocks({ sessionId: source, agent: sub });
    const starts = await Promise.all(
      blocks.map(async (b) => (await t.service.getBlock({ sessionId: source, block: b.id })).envelopes[0]!),
    );
    expect(starts.length).toBeGreaterThan(2);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true, instant: true });
    await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'agent-block', agent: sub }] });
    const hits: number[] = [];
    for (let stopped = await playToStop(id); !stopped.finished; stopped = await playToStop(id))
      hits.push(stopped.hit!.envelope);
    expect(hits).toEqual(starts.sort((a, b) => a - b));
  });

  it('cuts a network chunk holding several events to pause at the one that hits, then plays its rest', async () => {
    const path = join(t.dir, 'bp.recording');
    const e = (i: number, type: string) => `data: {"type":"${type}","agent":"a","final":true,"delta":"e${i}"}\n\n`;
    // One chunk with three events, the second a tool_call; then one more chunk.
    await writeRecordingFile(path, [
      {
        startedAt: 990,
        chunks: [
          { t: 1000, text: e(0, 'text') + e(1, 'tool_call') + e(2, 'text') },
          { t: 1100, text: e(3, 'tool_call') },
        ],
      },
    ]);
    const source = await t.openSettled(path);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true, speed: 20 });
    await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 'tool_call' }] });
    expect(await playToStop(id)).toMatchObject({ position: 2, hit: { envelope: 1 } });
    expect(await t.previews(id)).toEqual(['e0', 'e1']);
    expect(await playToStop(id)).toMatchObject({ position: 4, hit: { envelope: 3 } });
    await playToStop(id);
    // The replay keeps the source's network chunks although it delivered them in parts.
    const chunksOf = async (sessionId: string) =>
      (await t.service.getRawBytes({ sessionId, leg: 0, byteStart: 0, byteEnd: 1 << 20 })).chunks;
    expect(await chunksOf(id)).toEqual(await chunksOf(source));
  });

  it('pauses on an error finding with its rule, and on a chosen agent when the stream turns to it', async () => {
    const path = join(t.dir, 'bad.sse');
    await writeFile(
      path,
      'data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\ndata: {"type":"text",\n\ndata: {"type":"text","agent":"b","final":true,"delta":"y"}\n\ndata: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n',
    );
    const source = await t.openSettled(path);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true, instant: true });
    await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'error' }, { kind: 'agent', agent: 'b' }] });
    expect(await playToStop(id)).toMatchObject({
      position: 2,
      hit: { breakpoint: { kind: 'error' }, envelope: 1, rule: 'json.invalid' },
    });
    expect(await playToStop(id)).toMatchObject({
      position: 3,
      hit: { breakpoint: { kind: 'agent', agent: 'b' }, envelope: 2 },
    });
    expect(await playToStop(id)).toMatchObject({ finished: true });
  });

  it('a stream of many odd types still gives a valid replay state: the chooser offers the types a breakpoint can name', async () => {
    const path = join(t.dir, 'types.sse');
    const types = [...Array.from({ length: 600 }, (_, i) => `t${i}`), 'x'.repeat(300)];
    await writeFile(
      path,
      types.map((type) => `data: {"type":"${type}","agent":"a","final":true,"delta":""}\n\n`).join(''),
    );
    const source = await t.openSettled(path);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    const state = await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 't599' }] });
    expect(ReplayStateSchema.parse(state)).toEqual(state);
    expect(state.types.length).toBe(REPLAY_TYPES_MAX);
    expect(state.types.every((t) => t.length <= BREAKPOINT_TYPE_MAX)).toBe(true);
    // A breakpoint on a type beyond the list still hits.
    await control(id, { kind: 'speed', speed: 20, instant: true });
    expect(await playToStop(id)).toMatchObject({ hit: { envelope: 599 }, position: 600 });
  });

  it('steps and seeks pass breakpoints; removing the breakpoint paused at clears the hit', async () => {
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true, instant: true });
    await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 'text' }] });
    const stepped = await control(id, { kind: 'step', count: 30 });
    expect(stepped).toMatchObject({ position: 30 });
    expect(stepped.hit).toBeUndefined();
    expect((await control(id, { kind: 'seek', envelope: 99 })).hit).toBeUndefined();
    const paused = await playToStop(id);
    expect(paused.hit?.envelope).toBeGreaterThanOrEqual(100);
    const cleared = await control(id, { kind: 'breakpoints', breakpoints: [] });
    expect(cleared.hit).toBeUndefined();
    expect((await playToStop(id)).finished).toBe(true);
  });
});
