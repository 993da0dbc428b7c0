import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BREAKPOINT_TYPE_MAX, REPLAY_TYPES_MAX, ReplayState as ReplayStateSchema, type ReplayState } from '../../../../src-shared/contract/payloads';
import { fixturePath, readFixture } from '../../../testing/fixtures';
import { SSE_HEADERS, startLoopbackServer, writeSlowly, type LoopbackServer } from '../../connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../../demo-agent/index';
import { createManualClock, type ManualClock } from '../../replay/manual-clock';
import { createDefaultSessionService } from '../../../hosts/default-service';
import { LOOP_HOLD_MS, UNTIMED_PACE } from './replay-player';
import { recordEvents, settled, waitFor, writeRecordingFile, type EventLog } from '../service-testing';
import type { SessionService, SessionServiceDeps } from '../session-service';

let service: SessionService;
let events: EventLog;
let server: LoopbackServer | undefined;
let agent: DemoAgent | undefined;
let states: ReplayState[];
let dir: string;

/** (Re)creates the service under test with these dependencies, recording its events. */
async function useService(deps: Omit<SessionServiceDeps, 'createRecorder' | 'openSource'> = {}): Promise<void> {
  events?.dispose();
  await service?.dispose();
  service = createDefaultSessionService(deps);
  events = recordEvents(service);
  states = [];
  service.onReplayState((s) => states.push(s));
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'replay-session-'));
  await useService();
});

afterEach(async () => {
  events.dispose();
  await service.dispose();
  await server?.close();
  await agent?.close();
  server = agent = undefined;
  await rm(dir, { recursive: true, force: true });
});

const event = (i: number): string => `data: {"type":"text","agent":"a","final":${i === 5},"delta":"${i === 5 ? '' : `part ${i} `}"}\n\n`;

/** A live session of six one-event chunks, 60 ms apart. */
async function recordedSession(): Promise<string> {
  server = await startLoopbackServer(async (_req, res) => {
    res.writeHead(200, SSE_HEADERS);
    await writeSlowly(res, [0, 1, 2, 3, 4, 5].map(event), 60);
  });
  const { id } = await service.connect({ url: `${server.url}/s`, method: 'GET', headers: [] });
  await settled(service, id);
  return id;
}

const summaryOf = async (id: string) => (await service.listSessions()).find((s) => s.id === id)!;

describe('replay', () => {
  it('plays a session back into a new session with its timing scaled by the speed', async () => {
    const source = await recordedSession();
    const started = performance.now();
    const replay = await service.startReplay({ sessionId: source, speed: 4 });
    expect(replay.source).toEqual({ kind: 'replay', of: source });
    const done = await waitFor(async () => ((await summaryOf(replay.id)).state === 'complete' ? summaryOf(replay.id) : undefined), 'replay end');
    const elapsed = performance.now() - started;
    // 5 recorded gaps of ~60 ms at ×4: about 75 ms, well under the original 300 ms.
    expect(elapsed).toBeGreaterThan(50);
    expect(elapsed).toBeLessThan(300);
    expect(done.envelopes).toBe((await summaryOf(source)).envelopes);
    expect(states.at(-1)).toMatchObject({ sessionId: replay.id, source, finished: true, position: 6, total: 6, speed: 4 });
    const [a, b] = await Promise.all([service.getBlocks({ sessionId: source }), service.getBlocks({ sessionId: replay.id })]);
    expect(b.map((x) => [x.kind, x.status, x.length])).toEqual(a.map((x) => [x.kind, x.status, x.length]));
  });

  it('steps envelope by envelope from a paused start, and seeks back and forth', async () => {
    const source = await recordedSession();
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({ position: 1, playing: false });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'step', count: 2 } })).toMatchObject({ position: 3 });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 4 } })).toMatchObject({ position: 5 });
    await waitFor(() => events.rows(id).length === 5, 'five rows delivered');
    const sent = events.batches.length;
    const back = await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 1 } });
    expect(back.position).toBe(2);
    // The renderer learns of the restart from a batch of a newer generation starting again at 0.
    const restart = await waitFor(() => events.batches.slice(sent).find((b) => b.sessionId === id), 'restart batch');
    expect(restart).toMatchObject({ generation: 1, start: 0, total: 2 });
    expect(await summaryOf(id)).toMatchObject({ generation: 1, envelopes: 2 });
    const rows = await service.getRows({ sessionId: id, start: 0, count: 10 });
    expect(rows.rows.map((r) => r.preview)).toEqual(['part 0 ', 'part 1 ']);
    await expect(service.replayControl({ sessionId: source, action: { kind: 'play' } })).rejects.toThrow(/is not a replay/);
  });

  it('changes speed and plays instantly', async () => {
    const source = await recordedSession();
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 20, instant: true } })).toMatchObject({ speed: 20, instant: true });
    const started = performance.now();
    await service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await waitFor(async () => (await summaryOf(id)).state === 'complete', 'instant replay');
    expect(performance.now() - started).toBeLessThan(150);
  });

  it('pauses where the recording waited for frontend tools, and answering plays the recorded continuation', async () => {
    agent = await startDemoAgent({ pace: 'fast' });
    const { id: live } = await service.connect({
      url: `${agent.url}/agent/run?format=json`,
      method: 'POST',
      headers: [],
      body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', scenario: 'frontend-tools' }) },
    });
    await settled(service, live);
    const pending = (await service.getSession({ sessionId: live })).pendingTools!;
    const results = pending.tools.map((t) => ({ tool_use_id: t.toolUseId, content: 'yes' }));
    await service.sendToolResults({ sessionId: live, results });
    const answered = await waitFor(async () => {
      const s = await summaryOf(live);
      return s.legs === 2 && s.state === 'complete' ? s : undefined;
    }, 'live continuation');

    const { id } = await service.startReplay({ sessionId: live, instant: true });
    // Regression: the pause was never announced, so the sidebar and the prompt did not show it.
    const paused = await waitFor(() => events.lists.at(-1)?.find((s) => s.id === id && s.awaitingTools), 'the replay pause announced');
    expect(paused.legs).toBe(1);
    expect(states.at(-1)).toMatchObject({ sessionId: id, playing: false, finished: false });
    await expect(service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'wrong', content: 'x' }] })).rejects.toThrow(/not a pending tool/);
    expect(await service.sendToolResults({ sessionId: id, results })).toEqual({ leg: 1 });
    const done = await waitFor(async () => ((await summaryOf(id)).state === 'complete' ? summaryOf(id) : undefined), 'replayed continuation');
    expect(done).toMatchObject({ legs: 2, envelopes: answered.envelopes, awaitingTools: false });
  });
});

/** One JSON-envelope event; `i` is also its delta, so rows show which envelope they are. */
const envelopeEvent = (i: number, eol = '\n'): string => `data: {"type":"text","agent":"a","final":false,"delta":"e${i}"}${eol}${eol}`;

/** A recording of `count` one-event chunks, the first 10 ms after the request, then every `gap` ms. */
async function evenRecording(count: number, gap: number): Promise<string> {
  const path = join(dir, `even-${count}-${gap}.recording`);
  await writeRecordingFile(path, [{ startedAt: 990, chunks: Array.from({ length: count }, (_, i) => ({ t: 1000 + i * gap, text: envelopeEvent(i) })) }]);
  return path;
}

async function openSettled(path: string): Promise<string> {
  const { id } = await service.openFile({ path });
  await settled(service, id);
  return id;
}

const previews = async (id: string): Promise<string[]> => (await service.getRows({ sessionId: id, start: 0, count: 100_000 })).rows.map((r) => r.preview);

describe('replay decoding', () => {
  it('decodes with the format the source was opened with', async () => {
    const { id: source } = await service.openFile({ path: fixturePath('json_stream.raw.sse'), format: 'json' });
    await settled(service, source);
    expect((await summaryOf(source)).format).toBe('json');
    const { id } = await service.startReplay({ sessionId: source, instant: true });
    await waitFor(async () => (await summaryOf(id)).state === 'complete', 'the replay end');
    expect((await summaryOf(id)).format).toBe('json');
    expect(await previews(id)).toEqual(await previews(source));
  });
});

describe('replay announcements', () => {
  it('regression: the sidebar showed "0 env" while a replay played — its summary is announced during playback', async () => {
    const source = await openSettled(await evenRecording(10, 50));
    const { id } = await service.startReplay({ sessionId: source, speed: 1 });
    await waitFor(() => events.lists.at(-1)?.find((s) => s.id === id && s.state === 'complete'), 'the replay end announced');
    const during = events.lists.map((list) => list.find((s) => s.id === id)).filter((s) => s !== undefined && s.state === 'streaming' && s.envelopes > 0 && s.envelopes < 10);
    expect(during.length).toBeGreaterThan(0);
  });
});

describe('replay state events', () => {
  let clock: ManualClock;
  beforeEach(async () => {
    clock = createManualClock();
    await useService({ replayClock: clock });
  });

  it('regression: a replay started paused announced no state — it announces one at start', async () => {
    const source = await openSettled(await evenRecording(3, 50));
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    await waitFor(() => states.length > 0, 'the first state');
    expect(states).toEqual([{ sessionId: id, source, playing: false, speed: 1, instant: false, position: 0, total: 3, finished: false, breakpoints: [], loop: false, loops: 0, types: ['text'] }]);
  });

  it('regression: no state was sent during playback — the position is announced at most every 100 ms of the replay clock', async () => {
    const source = await openSettled(await evenRecording(10, 50));
    await service.startReplay({ sessionId: source, speed: 1 });
    const at: number[] = [];
    service.onReplayState(() => at.push(clock.now()));
    await waitFor(() => states.length > 0, 'the first state');
    for (let t = 0; t < 700; t += 10) await clock.advance(10);
    // Chunks arrive at 10, 60, 110, …, 460 ms; the end is announced at once.
    expect(states.map((s) => [s.position, s.playing, s.finished])).toEqual([
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
    const source = await openSettled(await evenRecording(10, 50));
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    await waitFor(() => states.length === 1, 'the first state');
    const control = async (action: Parameters<SessionService['replayControl']>[0]['action']) => {
      const answered = await service.replayControl({ sessionId: id, action });
      expect(states.at(-1)).toEqual(answered);
      return answered;
    };
    expect(await control({ kind: 'step' })).toMatchObject({ position: 1, playing: false });
    expect(await control({ kind: 'speed', speed: 4 })).toMatchObject({ speed: 4 });
    expect(await control({ kind: 'play' })).toMatchObject({ playing: true });
    expect(await control({ kind: 'pause' })).toMatchObject({ playing: false });
    expect(await control({ kind: 'seek', envelope: 6 })).toMatchObject({ position: 7, playing: false });
    expect(states.length).toBe(6);
  });
});

describe('replay of a source without receive times', () => {
  let clock: ManualClock;
  beforeEach(async () => {
    clock = createManualClock();
    await useService({ replayClock: clock });
  });

  it('regression: a capture replayed at ×1 finished at once — it plays one event at a time at a pace the speed multiplies', async () => {
    const source = await openSettled(fixturePath('multi_agent.json.sse'));
    const { id } = await service.startReplay({ sessionId: source, speed: 1 });
    await waitFor(() => states.length > 0, 'the first state');
    expect(states[0]).toMatchObject({ playing: true, pace: UNTIMED_PACE });
    // One event now, then one every 1000 / UNTIMED_PACE ms.
    await clock.advance(1000);
    expect((await summaryOf(id)).envelopes).toBe(UNTIMED_PACE + 1);
    expect(await service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 4 } })).toMatchObject({ playing: true, speed: 4 });
    const before = (await summaryOf(id)).envelopes;
    await clock.advance(1000);
    expect((await summaryOf(id)).envelopes - before).toBeGreaterThanOrEqual(4 * UNTIMED_PACE);
    expect((await summaryOf(id)).envelopes - before).toBeLessThanOrEqual(4 * UNTIMED_PACE + 1);

    // Pause holds the position; a step and a seek work from there; play goes on at the pace.
    const paused = await service.replayControl({ sessionId: id, action: { kind: 'pause' } });
    expect(paused.playing).toBe(false);
    await clock.advance(1000);
    expect((await summaryOf(id)).envelopes).toBe(paused.position);
    expect(await service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({ position: paused.position + 1, playing: false });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 9 } })).toMatchObject({ position: 10, playing: false });
    await service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await clock.advance(1000);
    expect((await summaryOf(id)).envelopes).toBe(10 + 4 * UNTIMED_PACE + 1);

    // "fast" still plays the rest at once.
    await service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 20, instant: true } });
    await clock.advance(10);
    await waitFor(async () => (await summaryOf(id)).state === 'complete', 'the fast end');
    expect(states.at(-1)).toMatchObject({ position: 173, finished: true, playing: false });
  });
});

describe('replay steps and seeks', () => {
  /** Steps until the replay finishes; the envelope count after each step. */
  async function stepThrough(id: string, limit: number): Promise<number[]> {
    const positions: number[] = [];
    for (let i = 0; i < limit; i++) {
      const state = await service.replayControl({ sessionId: id, action: { kind: 'step' } });
      if (state.finished) break;
      positions.push(state.position);
    }
    return positions;
  }

  it('regression: a capture read as one 64 KB chunk delivered all 173 envelopes on one step — a step is one event', async () => {
    const source = await openSettled(fixturePath('multi_agent.json.sse'));
    expect((await service.getSession({ sessionId: source })).legs[0]?.chunks).toBe(1);
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({ position: 1, total: 173 });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'step', count: 4 } })).toMatchObject({ position: 5 });
    const all = await previews(source);
    expect(await previews(id)).toEqual(all.slice(0, 5));
  });

  it('seeks to an envelope exactly, inside a chunk holding every event, forwards and backwards', async () => {
    const source = await openSettled(fixturePath('multi_agent.json.sse'));
    const all = await previews(source);
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    for (const envelope of [100, 9, 172, 0, 171]) {
      expect(await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope } })).toMatchObject({ position: envelope + 1 });
      expect(await previews(id)).toEqual(all.slice(0, envelope + 1));
    }
  });

  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('steps a capture with %s line endings one event at a time', async (_name, eol) => {
    const path = join(dir, 'capture.sse');
    await writeFile(path, Array.from({ length: 6 }, (_, i) => envelopeEvent(i, eol)).join(''));
    const source = await openSettled(path);
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    expect(await stepThrough(id, 20)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await previews(id)).toEqual(await previews(source));
  });

  /** Seven events in four network chunks: three whole events; half an event; its rest, one event and half the next; the rest and the last. */
  async function cutRecording(): Promise<string> {
    const e = Array.from({ length: 7 }, (_, i) => envelopeEvent(i));
    const path = join(dir, 'cut.recording');
    const chunks = [e[0]! + e[1]! + e[2]!, e[3]!.slice(0, 10), e[3]!.slice(10) + e[4]! + e[5]!.slice(0, 10), e[5]!.slice(10) + e[6]!];
    await writeRecordingFile(path, [{ startedAt: 990, chunks: chunks.map((text, i) => ({ t: 1000 + i * 100, text })) }]);
    return path;
  }

  it('steps a recording one network chunk at a time, cutting a chunk only where it would complete two events', async () => {
    const source = await openSettled(await cutRecording());
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    expect(await stepThrough(id, 20)).toEqual([1, 2, 3, 3, 4, 5, 6, 7]);
    expect(await previews(id)).toEqual(await previews(source));
  });

  it('keeps the network chunks of the source however it was stepped or seeked', async () => {
    const source = await openSettled(await cutRecording());
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    await service.replayControl({ sessionId: id, action: { kind: 'step', count: 2 } });
    await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 3 } });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'play' } })).toMatchObject({ playing: true });
    await waitFor(async () => (await summaryOf(id)).state === 'complete', 'the replay end');
    const chunksOf = async (sessionId: string) => (await service.getRawBytes({ sessionId, leg: 0, byteStart: 0, byteEnd: 1 << 20 })).chunks;
    expect(await chunksOf(id)).toEqual(await chunksOf(source));
    expect((await service.getSession({ sessionId: id })).legs[0]).toMatchObject({ chunks: 4, frames: 7 });
  });

  it('stops a step at a recorded frontend-tools pause; the next step plays on into the recorded continuation', async () => {
    const path = join(dir, 'pause.recording');
    const text = (name: string) => new TextDecoder().decode(readFixture(name));
    await writeRecordingFile(path, [
      { startedAt: 0, chunks: [{ t: 10, text: text('frontend_tools.json.sse') }] },
      { startedAt: 100, chunks: [{ t: 110, text: text('frontend_tools_resume.json.sse') }] },
    ]);
    const source = await openSettled(path);
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    const positions = await stepThrough(id, 15);
    expect(positions).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    // The next step ends the leg and stops there, waiting for the answer.
    expect(await service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({ position: 15, playing: false });
    await waitFor(() => events.lists.at(-1)?.find((s) => s.id === id && s.awaitingTools), 'the pause announced');
    expect(await stepThrough(id, 20)).toEqual([16, 17, 18, 19, 20, 21, 22]);
    const all = await previews(source);
    expect(await previews(id)).toEqual(all);
    // A seek passes the recorded pause on its way to an envelope of the continuation.
    await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 2 } });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 17 } })).toMatchObject({ position: 18, playing: false });
    expect(await previews(id)).toEqual(all.slice(0, 18));
  });
});

describe('replay breakpoints', () => {
  const control = (sessionId: string, action: Parameters<SessionService['replayControl']>[0]['action']) => service.replayControl({ sessionId, action });
  /** Types of the source's envelopes by seq. */
  const typesOf = async (id: string) => (await service.getRows({ sessionId: id, start: 0, count: 100_000 })).rows.map((r) => r.type);
  /** Plays until the replay stops (at a hit or the end) and returns its state then. */
  async function playToStop(id: string): Promise<ReplayState> {
    const from = states.length;
    await control(id, { kind: 'play' });
    return waitFor(() => states.slice(from).find((s) => s.sessionId === id && !s.playing && (s.hit !== undefined || s.finished)), 'the replay to stop');
  }

  it('pauses exactly at the first envelope of each run of a type; Continue goes to the next; the session shows up to the hit', async () => {
    const source = await openSettled(fixturePath('multi_agent.json.sse'));
    const types = await typesOf(source);
    const starts = types.flatMap((t, i) => (t === 'tool_call' && types[i - 1] !== 'tool_call' ? [i] : []));
    expect(starts.length).toBeGreaterThan(1);
    const { id } = await service.startReplay({ sessionId: source, paused: true, instant: true });
    const set = await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 'tool_call' }] });
    expect(set.breakpoints).toEqual([{ kind: 'type', type: 'tool_call' }]);
    expect(set.types).toEqual(expect.arrayContaining(['text', 'tool_call', 'meta_init']));
    for (const seq of starts) {
      const stopped = await playToStop(id);
      expect(stopped).toMatchObject({ position: seq + 1, hit: { breakpoint: { kind: 'type', type: 'tool_call' }, envelope: seq }, finished: false });
      expect(await typesOf(id)).toEqual(types.slice(0, seq + 1));
      expect((await summaryOf(id)).replayPaused).toBe(true);
    }
    // No hit left: Continue plays to the end; the hit is gone from the state.
    const end = await playToStop(id);
    expect(end).toMatchObject({ finished: true, position: types.length });
    expect(end.hit).toBeUndefined();
  });

  it('cuts a network chunk holding several events to pause at the one that hits, then plays its rest', async () => {
    const path = join(dir, 'bp.recording');
    const e = (i: number, type: string) => `data: {"type":"${type}","agent":"a","final":true,"delta":"e${i}"}\n\n`;
    // One chunk with three events, the second a tool_call; then one more chunk.
    await writeRecordingFile(path, [{ startedAt: 990, chunks: [{ t: 1000, text: e(0, 'text') + e(1, 'tool_call') + e(2, 'text') }, { t: 1100, text: e(3, 'tool_call') }] }]);
    const source = await openSettled(path);
    const { id } = await service.startReplay({ sessionId: source, paused: true, speed: 20 });
    await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 'tool_call' }] });
    expect(await playToStop(id)).toMatchObject({ position: 2, hit: { envelope: 1 } });
    expect(await previews(id)).toEqual(['e0', 'e1']);
    expect(await playToStop(id)).toMatchObject({ position: 4, hit: { envelope: 3 } });
    await playToStop(id);
    // The replay keeps the source's network chunks although it delivered them in parts.
    const chunksOf = async (sessionId: string) => (await service.getRawBytes({ sessionId, leg: 0, byteStart: 0, byteEnd: 1 << 20 })).chunks;
    expect(await chunksOf(id)).toEqual(await chunksOf(source));
  });

  it('pauses on an error finding with its rule, and on a chosen agent when the stream turns to it', async () => {
    const path = join(dir, 'bad.sse');
    await writeFile(
      path,
      'data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\ndata: {"type":"text",\n\ndata: {"type":"text","agent":"b","final":true,"delta":"y"}\n\ndata: {"type":"text","agent":"a","final":true,"delta":""}\n\ndata: [DONE]\n\n',
    );
    const source = await openSettled(path);
    const { id } = await service.startReplay({ sessionId: source, paused: true, instant: true });
    await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'error' }, { kind: 'agent', agent: 'b' }] });
    expect(await playToStop(id)).toMatchObject({ position: 2, hit: { breakpoint: { kind: 'error' }, envelope: 1, rule: 'json.invalid' } });
    expect(await playToStop(id)).toMatchObject({ position: 3, hit: { breakpoint: { kind: 'agent', agent: 'b' }, envelope: 2 } });
    expect(await playToStop(id)).toMatchObject({ finished: true });
  });

  it('a stream of many odd types still gives a valid replay state: the chooser offers the types a breakpoint can name', async () => {
    const path = join(dir, 'types.sse');
    const types = [...Array.from({ length: 600 }, (_, i) => `t${i}`), 'x'.repeat(300)];
    await writeFile(path, types.map((type) => `data: {"type":"${type}","agent":"a","final":true,"delta":""}\n\n`).join(''));
    const source = await openSettled(path);
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    const state = await control(id, { kind: 'breakpoints', breakpoints: [{ kind: 'type', type: 't599' }] });
    expect(ReplayStateSchema.parse(state)).toEqual(state);
    expect(state.types.length).toBe(REPLAY_TYPES_MAX);
    expect(state.types.every((t) => t.length <= BREAKPOINT_TYPE_MAX)).toBe(true);
    // A breakpoint on a type beyond the list still hits.
    await control(id, { kind: 'speed', speed: 20, instant: true });
    expect(await playToStop(id)).toMatchObject({ hit: { envelope: 599 }, position: 600 });
  });

  it('steps and seeks pass breakpoints; removing the breakpoint paused at clears the hit', async () => {
    const source = await openSettled(fixturePath('multi_agent.json.sse'));
    const { id } = await service.startReplay({ sessionId: source, paused: true, instant: true });
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

describe('replay loop', () => {
  let clock: ManualClock;
  beforeEach(async () => {
    clock = createManualClock();
    await useService({ replayClock: clock });
  });

  it('starts over after a hold at the end, as a new generation, until the loop is turned off', async () => {
    const source = await openSettled(await evenRecording(3, 50));
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    expect(await service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } })).toMatchObject({ loop: true, loops: 0 });
    await service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await clock.advance(200);
    expect(states.at(-1)).toMatchObject({ finished: true, position: 3, loops: 0 });
    await clock.advance(LOOP_HOLD_MS);
    await waitFor(() => states.at(-1)?.loops === 1 && states.at(-1)?.playing, 'the second pass');
    expect((await summaryOf(id)).generation).toBe(1);
    await clock.advance(200);
    expect(states.at(-1)).toMatchObject({ finished: true, position: 3, loops: 1 });
    expect(await previews(id)).toEqual(['e0', 'e1', 'e2']);

    // Off: the next end stays finished.
    await service.replayControl({ sessionId: id, action: { kind: 'loop', on: false } });
    await clock.advance(LOOP_HOLD_MS * 3);
    expect(states.at(-1)).toMatchObject({ finished: true, loop: false, loops: 1 });
    expect((await summaryOf(id)).generation).toBe(1);
  });

  it('a pause during the hold keeps the finished replay where it is', async () => {
    const source = await openSettled(await evenRecording(3, 50));
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    await service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } });
    await service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await clock.advance(200);
    await service.replayControl({ sessionId: id, action: { kind: 'pause' } });
    await clock.advance(LOOP_HOLD_MS * 2);
    expect(states.at(-1)).toMatchObject({ finished: true, loops: 0 });
  });

  it('loops a capture played at a pace too', async () => {
    const path = join(dir, 'three.sse');
    await writeFile(path, [0, 1, 2].map((i) => envelopeEvent(i)).join(''));
    const source = await openSettled(path);
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    await service.replayControl({ sessionId: id, action: { kind: 'loop', on: true } });
    await service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await clock.advance(1000);
    expect(states.at(-1)).toMatchObject({ finished: true, loops: 0 });
    await clock.advance(LOOP_HOLD_MS);
    // The second pass starts once the rewind has run; the paced steps wait on the clock.
    await waitFor(async () => {
      await clock.advance(50);
      return states.at(-1)?.finished === true && states.at(-1)?.loops === 1;
    }, 'the second end');
    // The second pass played event by event from the start again.
    expect(states.filter((s) => s.loops === 1).map((s) => s.position)).toEqual([0, 0, 1, 2, 3, 3, 3]);
  });
});

describe('replay in the sessions list', () => {
  it('regression: the sidebar said "replaying" for a paused replay — the summary says it is paused', async () => {
    const source = await openSettled(await evenRecording(5, 50));
    const { id } = await service.startReplay({ sessionId: source, paused: true });
    await waitFor(() => events.lists.at(-1)?.find((s) => s.id === id && s.replayPaused === true), 'a paused replay listed as paused');
    await service.replayControl({ sessionId: id, action: { kind: 'speed', speed: 0.25 } });
    await service.replayControl({ sessionId: id, action: { kind: 'play' } });
    await waitFor(() => events.lists.at(-1)?.find((s) => s.id === id && s.replayPaused === undefined && s.state === 'streaming'), 'a playing replay listed as playing');
  });
});
