import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReplayState } from '../../../src-shared/contract/payloads';
import { SSE_HEADERS, startLoopbackServer, writeSlowly, type LoopbackServer } from '../connection/loopback-testing';
import { startDemoAgent, type DemoAgent } from '../demo-agent/index';
import { createDefaultSessionService } from './default-service';
import { recordEvents, settled, waitFor, type EventLog } from './service-testing';
import type { SessionService } from './session-service';

let service: SessionService;
let events: EventLog;
let server: LoopbackServer | undefined;
let agent: DemoAgent | undefined;
let states: ReplayState[];

beforeEach(() => {
  service = createDefaultSessionService();
  events = recordEvents(service);
  states = [];
  service.onReplayState((s) => states.push(s));
});

afterEach(async () => {
  events.dispose();
  await service.dispose();
  await server?.close();
  await agent?.close();
  server = agent = undefined;
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
    // The renderer learns of the restart from a batch starting again at 0.
    const restart = await waitFor(() => events.batches.slice(sent).find((b) => b.sessionId === id), 'restart batch');
    expect(restart).toMatchObject({ start: 0, total: 2 });
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
    const paused = await waitFor(async () => {
      const s = await summaryOf(id);
      return s.awaitingTools ? s : undefined;
    }, 'replay pause');
    expect(paused.legs).toBe(1);
    await expect(service.sendToolResults({ sessionId: id, results: [{ tool_use_id: 'wrong', content: 'x' }] })).rejects.toThrow(/not a pending tool/);
    expect(await service.sendToolResults({ sessionId: id, results })).toEqual({ leg: 1 });
    const done = await waitFor(async () => ((await summaryOf(id)).state === 'complete' ? summaryOf(id) : undefined), 'replayed continuation');
    expect(done).toMatchObject({ legs: 2, envelopes: answered.envelopes, awaitingTools: false });
  });
});
