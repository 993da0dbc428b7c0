import { describe, expect, it } from 'vitest';
import { fixturePath } from '../../../testing/fixtures';
import { startDemoAgent } from '../../demo-agent/index';
import { UNTIMED_PACE } from './replay-pace';
import { useReplayHarness } from './replay-testing';
import { settled, waitFor } from '../service-testing';
import type { SessionService } from '../session-service';

const t = useReplayHarness();

describe('replay', () => {
  it('steps envelope by envelope from a paused start, and seeks back and forth', async () => {
    const source = await t.recordedSession();
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({
      position: 1,
      playing: false,
    });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'step', count: 2 } })).toMatchObject({
      position: 3,
    });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 4 } })).toMatchObject({
      position: 5,
    });
    await waitFor(() => t.events.rows(id).length === 5, 'five rows delivered');
    const sent = t.events.batches.length;
    const back = await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 1 } });
    expect(back.position).toBe(2);
    // The renderer learns of the restart from a batch of a newer generation starting again at 0.
    const restart = await waitFor(() => t.events.batches.slice(sent).find((b) => b.sessionId === id), 'restart batch');
    expect(restart).toMatchObject({ generation: 1, start: 0, total: 2 });
    expect(await t.summaryOf(id)).toMatchObject({ generation: 1, envelopes: 2 });
    const rows = await t.service.getRows({ sessionId: id, start: 0, count: 10 });
    expect(rows.rows.map((r) => r.preview)).toEqual(['part 0 ', 'part 1 ']);
    await expect(t.service.replayControl({ sessionId: source, action: { kind: 'play' } })).rejects.toThrow(
      /is not a replay/,
    );
  });

  it('changes speed and plays instantly', async () => {
    const source = await t.recordedSession();
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    expect(
      await t.service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 20, instant: true } }),
    ).toMatchObject({ speed: 20, instant: true });
    const started = performance.now();
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await waitFor(async () => (await t.summaryOf(id)).state === 'complete', 'instant replay');
    expect(performance.now() - started).toBeLessThan(150);
  });

  it('pauses where the recording waited for frontend tools, and answering plays the recorded continuation', async () => {
    t.agent = await startDemoAgent({ pace: 'fast' });
    const { id: live } = await t.service.connect({
      url: `${t.agent.url}/agent/run?format=json`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }) },
    });
    await settled(t.service, live);
    const pending = (await t.service.getSession({ sessionId: live })).pendingTools!;
    const results = pending.tools.map((t) => ({ tool_use_id: t.toolUseId, content: 'yes' }));
    await t.service.sendToolResults({ sessionId: live, results });
    const answered = await waitFor(async () => {
      const s = await t.summaryOf(live);
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'live continuation');

    const { id } = await t.service.startReplay({ sessionId: live, instant: true });
    // Regression: the pause was never announced, so the sidebar and the prompt did not show it.
    const paused = await waitFor(
      () => t.events.lists.at(-1)?.find((s) => s.id === id && s.awaitingTools),
      'the replay pause announced',
    );
    expect(paused.legs).toBe(1);
    expect(t.states.at(-1)).toMatchObject({ sessionId: id, playing: false, finished: false });
    await expect(
      t.service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'wrong', content: 'x' }] }),
    ).rejects.toThrow(/not a pending tool/);
    expect(await t.service.sendToolResults({ sessionId: id, results })).toEqual({ leg: 1 });
    const done = await waitFor(
      async () => ((await t.summaryOf(id)).state === 'complete' ? t.summaryOf(id) : undefined),
      'replayed continuation',
    );
    expect(done).toMatchObject({ legs: 2, envelopes: answered.envelopes, awaitingTools: false });
  });
});

describe('replay timing', () => {
  t.useManualClock();

  // On the replay clock, not the wall clock: a loaded machine only delays when each timer runs,
  // never which envelopes a given stretch of recorded time delivers.
  it('plays a session back into a new session with its timing scaled by the speed', async () => {
    // Six one-event chunks, the first 10 ms after the request, then 60 ms apart: 2.5 and 15 ms at ×4.
    const source = await t.openSettled(await t.evenRecording(6, 60));
    const replay = await t.service.startReplay({ sessionId: source, speed: 4 });
    expect(replay.source).toEqual({ kind: 'replay', of: source });
    const delivered = async (): Promise<number> => (await t.summaryOf(replay.id)).envelopes;
    await t.clock.advance(3);
    expect(await delivered()).toBe(1);
    for (let next = 2; next <= 6; next++) {
      await t.clock.advance(14);
      expect(await delivered()).toBe(next - 1);
      await t.clock.advance(1);
      expect(await delivered()).toBe(next);
    }
    // 78 ms of replay clock for 310 ms of recorded time.
    await waitFor(async () => (await t.summaryOf(replay.id)).state === 'complete', 'replay end');
    expect(t.states.at(-1)).toMatchObject({
      sessionId: replay.id,
      source,
      finished: true,
      position: 6,
      total: 6,
      speed: 4,
    });
    const [a, b] = await Promise.all([
      t.service.getBlocks({ sessionId: source }),
      t.service.getBlocks({ sessionId: replay.id }),
    ]);
    expect(b.map((x) => [x.kind, x.status, x.length])).toEqual(a.map((x) => [x.kind, x.status, x.length]));
  });
});

describe('replay decoding', () => {
  it('decodes with the format the source was opened with', async () => {
    const { id: source } = await t.service.openFile({ path: fixturePath('json_stream.raw.sse'), format: 'json' });
    await settled(t.service, source);
    expect((await t.summaryOf(source)).format).toBe('json');
    const { id } = await t.service.startReplay({ sessionId: source, instant: true });
    await waitFor(async () => (await t.summaryOf(id)).state === 'complete', 'the replay end');
    expect((await t.summaryOf(id)).format).toBe('json');
    expect(await t.previews(id)).toEqual(await t.previews(source));
  });
});

describe('replay announcements', () => {
  it('regression: the sidebar showed "0 env" while a replay played — its summary is announced during playback', async () => {
    const source = await t.openSettled(await t.evenRecording(10, 50));
    const { id } = await t.service.startReplay({ sessionId: source, speed: 1 });
    await waitFor(
      () => t.events.lists.at(-1)?.find((s) => s.id === id && s.state === 'complete'),
      'the replay end announced',
    );
    const during = t.events.lists
      .map((list) => list.find((s) => s.id === id))
      .filter((s) => s !== undefined && s.state === 'streaming' && s.envelopes > 0 && s.envelopes < 10);
    expect(during.length).toBeGreaterThan(0);
  });
});

describe('replay state events', () => {
  t.useManualClock();

  it('regression: a replay started paused announced no state — it announces one at start', async () => {
    const source = await t.openSettled(await t.evenRecording(3, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await waitFor(() => t.states.length > 0, 'the first state');
    expect(t.states).toEqual([
      {
        sessionId: id,
        source,
        playing: false,
        speed: 1,
        instant: false,
        position: 0,
        total: 3,
        finished: false,
        breakpoints: [],
        loop: false,
        loops: 0,
        types: ['text'],
      },
    ]);
  });

  it('regression: no state was sent during playback — the position is announced at most every 100 ms of the replay clock', async () => {
    const source = await t.openSettled(await t.evenRecording(10, 50));
    await t.service.startReplay({ sessionId: source, speed: 1 });
    const at: number[] = [];
    t.service.onReplayState(() => at.push(t.clock.now()));
    await waitFor(() => t.states.length > 0, 'the first state');
    for (let ms = 0; ms < 700; ms += 10) await t.clock.advance(10);
    // Chunks arrive at 10, 60, 110, …, 460 ms; the end is announced at once.
    expect(t.states.map((s) => [s.position, s.playing, s.finished])).toEqual([
      [0, true, false],
      [2, true, false],
      [4, true, false],
      [6, true, false],
      [8, true, false],
      [10, false, true],
    ]);
    expect(at).toEqual([100, 200, 300, 400, 460]);
  });

  it('announces each control: step, speed, play, pause, seek', async () => {
    const source = await t.openSettled(await t.evenRecording(10, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await waitFor(() => t.states.length === 1, 'the first state');
    const control = async (action: Parameters<SessionService['replayControl']>[0]['action']) => {
      const answered = await t.service.replayControl({ sessionId: id, action });
      expect(t.states.at(-1)).toEqual(answered);
      return answered;
    };
    expect(await control({ kind: 'step' })).toMatchObject({ position: 1, playing: false });
    expect(await control({ kind: 'speed', speed: 4 })).toMatchObject({ speed: 4 });
    expect(await control({ kind: 'play' })).toMatchObject({ playing: true });
    expect(await control({ kind: 'pause' })).toMatchObject({ playing: false });
    expect(await control({ kind: 'seek', envelope: 6 })).toMatchObject({ position: 7, playing: false });
    expect(t.states.length).toBe(6);
  });
});

describe('replay of a source without receive times', () => {
  t.useManualClock();

  it('regression: a capture replayed at ×1 finished at once — it plays one event at a time at a pace the speed multiplies', async () => {
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    const { id } = await t.service.startReplay({ sessionId: source, speed: 1 });
    await waitFor(() => t.states.length > 0, 'the first state');
    expect(t.states[0]).toMatchObject({ playing: true, pace: UNTIMED_PACE });
    // One event now, then one every 1000 / UNTIMED_PACE ms.
    await t.clock.advance(1000);
    expect((await t.summaryOf(id)).envelopes).toBe(UNTIMED_PACE + 1);
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 4 } })).toMatchObject({
      playing: true,
      speed: 4,
    });
    const before = (await t.summaryOf(id)).envelopes;
    await t.clock.advance(1000);
    expect((await t.summaryOf(id)).envelopes - before).toBeGreaterThanOrEqual(4 * UNTIMED_PACE);
    expect((await t.summaryOf(id)).envelopes - before).toBeLessThanOrEqual(4 * UNTIMED_PACE + 1);

    // Pause holds the position; a step and a seek work from there; play goes on at the pace.
    const paused = await t.service.replayControl({ sessionId: id, action: { kind: 'pause' } });
    expect(paused.playing).toBe(false);
    await t.clock.advance(1000);
    expect((await t.summaryOf(id)).envelopes).toBe(paused.position);
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({
      position: paused.position + 1,
      playing: false,
    });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 9 } })).toMatchObject({
      position: 10,
      playing: false,
    });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await t.clock.advance(1000);
    expect((await t.summaryOf(id)).envelopes).toBe(10 + 4 * UNTIMED_PACE + 1);

    // "fast" still plays the rest at once.
    await t.service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 20, instant: true } });
    await t.clock.advance(10);
    await waitFor(async () => (await t.summaryOf(id)).state === 'complete', 'the fast end');
    expect(t.states.at(-1)).toMatchObject({ position: 173, finished: true, playing: false });
  });
});

describe('replay in the sessions list', () => {
  it('regression: the sidebar said "replaying" for a paused replay — the summary says it is paused', async () => {
    const source = await t.openSettled(await t.evenRecording(5, 50));
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await waitFor(
      () => t.events.lists.at(-1)?.find((s) => s.id === id && s.replayPaused === true),
      'a paused replay listed as paused',
    );
    await t.service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 0.25 } });
    await t.service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await waitFor(
      () => t.events.lists.at(-1)?.find((s) => s.id === id && s.replayPaused === undefined && s.state === 'streaming'),
      'a playing replay listed as playing',
    );
  });
});
