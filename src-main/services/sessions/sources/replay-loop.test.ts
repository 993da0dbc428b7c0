import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOOP_HOLD_MS } from './replay-loop-hold';
import { envelopeEvent, useReplayHarness } from './replay-testing';
import { waitFor } from '../service-testing';

const t = useReplayHarness();

describe('replay loop', () => {
  t.useManualClock();

  it('starts over after a hold at the end, as a new generation, until the loop is turned off', async () => {
    const source = await t.openSettled(await t.evenRecording(3, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } })).toMatchObject({
      loop: true,
      loops: 0,
    });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await t.clock.advance(200);
    expect(t.states.at(-1)).toMatchObject({ finished: true, position: 3, loops: 0 });
    await t.clock.advance(LOOP_HOLD_MS);
    await waitFor(() => t.states.at(-1)?.loops === 1 && t.states.at(-1)?.playing, 'the second pass');
    expect((await t.summaryOf(id)).generation).toBe(1);
    await t.clock.advance(200);
    expect(t.states.at(-1)).toMatchObject({ finished: true, position: 3, loops: 1 });
    expect(await t.previews(id)).toEqual(['e0', 'e1', 'e2']);

    // Off: the next end stays finished.
    await t.service.replayControl({ sessionId: id, action: { kind: 'loop', on: false } });
    await t.clock.advance(LOOP_HOLD_MS * 3);
    expect(t.states.at(-1)).toMatchObject({ finished: true, loop: false, loops: 1 });
    expect((await t.summaryOf(id)).generation).toBe(1);
  });

  it('a pause during the hold keeps the finished replay where it is', async () => {
    const source = await t.openSettled(await t.evenRecording(3, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await t.service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await t.clock.advance(200);
    await t.service.replayControl({ sessionId: id, action: { kind: 'pause' } });
    await t.clock.advance(LOOP_HOLD_MS * 2);
    expect(t.states.at(-1)).toMatchObject({ finished: true, loops: 0 });
  });

  it('loops a capture played at a pace too', async () => {
    const path = join(t.dir, 'three.sse');
    await writeFile(path, [0, 1, 2].map((i) => envelopeEvent(i)).join(''));
    const source = await t.openSettled(path);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await t.service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await t.clock.advance(1000);
    expect(t.states.at(-1)).toMatchObject({ finished: true, loops: 0 });
    await t.clock.advance(LOOP_HOLD_MS);
    // The second pass starts once the rewind has run; the paced steps wait on the t.clock.
    await waitFor(async () => {
      await t.clock.advance(50);
      return t.states.at(-1)?.finished === true && t.states.at(-1)?.loops === 1;
    }, 'the second end');
    // The second pass played event by event from the start again.
    expect(t.states.filter((s) => s.loops === 1).map((s) => s.position)).toEqual([0, 0, 1, 2, 3, 3, 3]);
  });
});
