import { describe, expect, it } from 'vitest';
import { LOOP_HOLD_MS } from './replay-loop-hold';
import { useReplayHarness } from './replay-testing';
import { waitFor } from '../service-testing';

const t = useReplayHarness();

describe('replay restart', () => {
  t.useManualClock();

  it('starts the same replay session over, paused, as a new generation: no second session', async () => {
    const source = await t.openSettled(await t.evenRecording(3, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await t.clock.advance(200);
    expect(t.states.at(-1)).toMatchObject({ finished: true, position: 3 });

    for (let i = 1; i <= 2; i++) {
      if (i > 1) await t.service.replayControl({ sessionId: id, action: { kind: 'step' } });
      const state = await t.service.replayControl({ sessionId: id, action: { kind: 'restart' } });
      expect(state).toMatchObject({ sessionId: id, playing: false, finished: false, position: 0 });
      expect((await t.summaryOf(id)).generation).toBe(i);
      expect(await t.previews(id)).toEqual([]);
    }
    expect((await t.service.listSessions()).map((s) => s.source.kind)).toEqual(['file', 'replay']);

    // Played again from there, and looping.
    await t.service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await t.clock.advance(200);
    expect(t.states.at(-1)).toMatchObject({ finished: true, position: 3, loops: 0 });
    await t.clock.advance(LOOP_HOLD_MS);
    await waitFor(() => t.states.at(-1)?.loops === 1 && t.states.at(-1)?.playing, 'the second pass');
    await t.clock.advance(200);
    expect(await t.previews(id)).toEqual(['e0', 'e1', 'e2']);
  });

  it('announces the new generation before answering about it', async () => {
    const source = await t.openSettled(await t.evenRecording(3, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 2 } });
    const lists = t.events.lists.length;
    await t.service.replayControl({ sessionId: id, action: { kind: 'restart' } });
    await expect(t.service.getEnvelope({ sessionId: id, seq: 2 })).rejects.toThrow(/no envelope 2/);
    expect(t.events.lists.slice(lists).some((list) => list.find((s) => s.id === id)?.generation === 1)).toBe(true);
  });
});

describe('replay restart of a capture played at a pace', () => {
  t.useManualClock();

  it('starts over after the end', async () => {
    const { fixturePath } = await import('../../../testing/fixtures');
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true, speed: 20 });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await waitFor(
      async () => {
        await t.clock.advance(100);
        return t.states.at(-1)?.finished;
      },
      'the end',
      20_000,
    );
    const state = await t.service.replayControl({ sessionId: id, action: { kind: 'restart' } });
    expect(state).toMatchObject({ position: 0, finished: false, playing: false });
  });
});
