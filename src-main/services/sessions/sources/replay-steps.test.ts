import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath, readFixture } from '../../../testing/fixtures';
import { envelopeEvent, useReplayHarness } from './replay-testing';
import { waitFor, writeRecordingFile } from '../service-testing';

const t = useReplayHarness();

describe('replay steps and seeks', () => {
  /** Steps until the replay finishes; the envelope count after each step. */
  async function stepThrough(id: string, limit: number): Promise<number[]> {
    const positions: number[] = [];
    for (let i = 0; i < limit; i++) {
      const state = await t.service.replayControl({ sessionId: id, action: { kind: 'step' } });
      if (state.finished) break;
      positions.push(state.position);
    }
    return positions;
  }

  it('regression: a capture read as one 64 KB chunk delivered all 173 envelopes on one step — a step is one event', async () => {
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    expect((await t.service.getSession({ sessionId: source })).legs[0]?.chunks).toBe(1);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({
      position: 1,
      total: 173,
    });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'step', count: 4 } })).toMatchObject({
      position: 5,
    });
    const all = await t.previews(source);
    expect(await t.previews(id)).toEqual(all.slice(0, 5));
  });

  it('seeks to an envelope exactly, inside a chunk holding every event, forwards and backwards', async () => {
    const source = await t.openSettled(fixturePath('multi_agent.json.sse'));
    const all = await t.previews(source);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    for (const envelope of [100, 9, 172, 0, 171]) {
      expect(await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope } })).toMatchObject({
        position: envelope + 1,
      });
      expect(await t.previews(id)).toEqual(all.slice(0, envelope + 1));
    }
  });

  it.each([
    ['LF', '\n'],
    ['CR', '\r'],
    ['CRLF', '\r\n'],
  ])('steps a capture with %s line endings one event at a time', async (_name, eol) => {
    const path = join(t.dir, 'capture.sse');
    await writeFile(path, Array.from({ length: 6 }, (_, i) => envelopeEvent(i, eol)).join(''));
    const source = await t.openSettled(path);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    expect(await stepThrough(id, 20)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await t.previews(id)).toEqual(await t.previews(source));
  });

  /** Seven events in four network chunks: three whole events; half an event; its rest, one event and half the next; the rest and the last. */
  async function cutRecording(): Promise<string> {
    const e = Array.from({ length: 7 }, (_, i) => envelopeEvent(i));
    const path = join(t.dir, 'cut.recording');
    const chunks = [
      e[0]! + e[1]! + e[2]!,
      e[3]!.slice(0, 10),
      e[3]!.slice(10) + e[4]! + e[5]!.slice(0, 10),
      e[5]!.slice(10) + e[6]!,
    ];
    await writeRecordingFile(path, [
      { startedAt: 990, chunks: chunks.map((text, i) => ({ t: 1000 + i * 100, text })) },
    ]);
    return path;
  }

  it('steps a recording one network chunk at a time, cutting a chunk only where it would complete two events', async () => {
    const source = await t.openSettled(await cutRecording());
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    expect(await stepThrough(id, 20)).toEqual([1, 2, 3, 3, 4, 5, 6, 7]);
    expect(await t.previews(id)).toEqual(await t.previews(source));
  });

  it('keeps the network chunks of the source however it was stepped or seeked', async () => {
    const source = await t.openSettled(await cutRecording());
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    await t.service.replayControl({ sessionId: id, action: { kind: 'step', count: 2 } });
    await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 3 } });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'play' } })).toMatchObject({ playing: true });
    await waitFor(async () => (await t.summaryOf(id)).state === 'complete', 'the replay end');
    const chunksOf = async (sessionId: string) =>
      (await t.service.getRawBytes({ sessionId, leg: 0, byteStart: 0, byteEnd: 1 << 20 })).chunks;
    expect(await chunksOf(id)).toEqual(await chunksOf(source));
    expect((await t.service.getSession({ sessionId: id })).legs[0]).toMatchObject({ chunks: 4, frames: 7 });
  });

  it('stops a step at a recorded frontend-tools pause; the next step plays on into the recorded continuation', async () => {
    const path = join(t.dir, 'pause.recording');
    const text = (name: string) => new TextDecoder().decode(readFixture(name));
    await writeRecordingFile(path, [
      { startedAt: 0, chunks: [{ t: 10, text: text('frontend_tools.json.sse') }] },
      { startedAt: 100, chunks: [{ t: 110, text: text('frontend_tools_resume.json.sse') }] },
    ]);
    const source = await t.openSettled(path);
    const { id } = await t.service.startReplay({ sessionId: source, paused: true });
    const positions = await stepThrough(id, 15);
    expect(positions).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    // The next step ends the leg and stops there, waiting for the answer.
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'step' } })).toMatchObject({
      position: 15,
      playing: false,
    });
    await waitFor(() => t.events.lists.at(-1)?.find((s) => s.id === id && s.awaitingTools), 'the pause announced');
    expect(await stepThrough(id, 20)).toEqual([16, 17, 18, 19, 20, 21, 22]);
    const all = await t.previews(source);
    expect(await t.previews(id)).toEqual(all);
    // A seek passes the recorded pause on its way to an envelope of the continuation.
    await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 2 } });
    expect(await t.service.replayControl({ sessionId: id, action: { kind: 'seek', envelope: 17 } })).toMatchObject({
      position: 18,
      playing: false,
    });
    expect(await t.previews(id)).toEqual(all.slice(0, 18));
  });
});
