import { describe, expect, it } from 'vitest';
import { createSessionDecoder } from '../../../src-shared/pipeline/session-decoder';
import type { RecordedAction } from '../../../src-shared/recording/types';
import { splitEvery } from '../../../src-shared/testing/chunking';
import { readFixture } from '../../testing/fixtures';
import type { ImportedChunk, ImportedLeg } from '../importers/types';
import { createManualClock, settle } from './manual-clock';
import { createReplay, type ReplayHandlers, type ReplayOptions } from './replay';
import type { TimelineSource } from './timeline';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

function leg(index: number, chunks: ImportedChunk[], startedAt?: number): ImportedLeg {
  return {
    index,
    ...(startedAt !== undefined ? { startedAt } : {}),
    chunks: {
      async *[Symbol.asyncIterator]() {
        for (const chunk of chunks) {
          await Promise.resolve();
          yield chunk;
        }
      },
    },
  };
}

/** Leg 0 sent at 950: chunks at 1000, 1100, 1400; the user answers at 2000; leg 1 sent at 2010: a chunk at 2050. */
function twoLegSource(): TimelineSource {
  const action: RecordedAction = { kind: 'tool-results', at: 2000, leg: 0, body: '{}' };
  return {
    legs: [
      leg(
        0,
        [
          { bytes: text('a'), receivedAt: 1000 },
          { bytes: text('b'), receivedAt: 1100 },
          { bytes: text('c'), receivedAt: 1400 },
        ],
        950,
      ),
      leg(1, [{ bytes: text('d'), receivedAt: 2050 }], 2010),
    ],
    actions: [action],
  };
}

function recorder() {
  const log: string[] = [];
  const handlers: ReplayHandlers = {
    onChunk: (c) => log.push(`${new TextDecoder().decode(c.bytes)}@${c.replayedAt}`),
    onLegStart: (l) => log.push(`start ${l.index}`),
    onLegEnd: (l) => log.push(`end ${l.index}`),
    onAction: (a) => log.push(`action ${a.kind}`),
    onReset: () => log.push('reset'),
  };
  return { log, handlers, chunks: () => log.filter((l) => l.includes('@')) };
}

function setup(options: ReplayOptions = {}, source = twoLegSource()) {
  const clock = createManualClock(0);
  const r = recorder();
  const replay = createReplay(source, r.handlers, { clock, ...options });
  return { clock, replay, ...r };
}

describe('replay timing', () => {
  it('plays with the original gaps, the first byte after the time to first byte', async () => {
    const { clock, replay, log } = setup();
    replay.play();
    await clock.advance(49);
    expect(log).toEqual(['start 0']);
    await clock.advance(1);
    expect(log).toEqual(['start 0', 'a@50']);
    await clock.advance(99);
    expect(log.at(-1)).toBe('a@50');
    await clock.advance(1);
    expect(log.at(-1)).toBe('b@150');
    await clock.advance(300);
    expect(log.slice(-2)).toEqual(['c@450', 'end 0']);
    // Think time of the user (600), the POST (10), the continuation's first byte (40).
    await clock.advance(600);
    expect(log.slice(-2)).toEqual(['end 0', 'action tool-results']);
    await clock.advance(50);
    expect(log.slice(-4)).toEqual(['action tool-results', 'start 1', 'd@1100', 'end 1']);
    await clock.advance(0);
    expect(replay.state).toMatchObject({ status: 'ended', position: 4 });
  });

  it.each([
    [2, ['a@25', 'b@75', 'c@225', 'd@550']],
    [0.25, ['a@200', 'b@600', 'c@1800', 'd@4400']],
    [20, ['a@2.5', 'b@7.5', 'c@22.5', 'd@55']],
  ])('at ×%s every gap is divided by the speed', async (speed, expected) => {
    const { clock, replay, chunks } = setup({ speed });
    replay.play();
    await clock.advance(5000);
    expect(chunks()).toEqual(expected);
  });

  it('plays as fast as possible without the clock moving', async () => {
    const { replay, chunks, log } = setup({ speed: 'fast' });
    replay.play();
    await settle();
    expect(chunks()).toEqual(['a@0', 'b@0', 'c@0', 'd@0']);
    expect(log).toEqual(['start 0', 'a@0', 'b@0', 'c@0', 'end 0', 'action tool-results', 'start 1', 'd@0', 'end 1']);
    expect(replay.state.status).toBe('ended');
  });

  it('caps long gaps at maxGapMs', async () => {
    const { clock, replay, chunks } = setup({ maxGapMs: 100 });
    replay.play();
    await clock.advance(1000);
    // c → the answer: 600 ms capped to 100; then 10 and 40 as recorded.
    expect(chunks()).toEqual(['a@50', 'b@150', 'c@250', 'd@400']);
  });

  it('keeps the rest of a gap across a pause', async () => {
    const { clock, replay, chunks } = setup();
    replay.play();
    await clock.advance(100);
    replay.pause();
    await clock.advance(1000);
    expect(chunks()).toEqual(['a@50']);
    replay.play();
    await clock.advance(49);
    expect(chunks()).toEqual(['a@50']);
    await clock.advance(1);
    expect(chunks()).toEqual(['a@50', 'b@1150']);
  });

  it('waits the rest of a gap at the new speed after a speed change', async () => {
    const { clock, replay, chunks } = setup();
    replay.play();
    await clock.advance(100);
    replay.setSpeed(5);
    await settle();
    // 50 of the 100 ms gap to b are left: 10 ms at ×5.
    await clock.advance(10);
    expect(chunks()).toEqual(['a@50', 'b@110']);
  });

  it('rejects a speed outside ×0.25 to ×20', () => {
    expect(() => setup({ speed: 0.1 })).toThrow('between ×0.25 and ×20');
    expect(() => setup().replay.setSpeed(21)).toThrow('between ×0.25 and ×20');
  });

  it('plays a file without timing at once, whatever the speed', async () => {
    const source = {
      legs: [
        leg(0, [
          { bytes: text('x'), receivedAt: 0 },
          { bytes: text('y'), receivedAt: 0 },
        ]),
      ],
      actions: [],
    };
    const { replay, chunks } = setup({ speed: 0.25 }, source);
    replay.play();
    await settle();
    expect(chunks()).toEqual(['x@0', 'y@0']);
  });
});

describe('replay stepping and seeking', () => {
  it('steps one chunk at a time, with the leg boundaries and actions around it', async () => {
    const { replay, log } = setup();
    expect(await replay.step()).toBe(true);
    expect(log).toEqual(['start 0', 'a@0']);
    expect(await replay.step()).toBe(true);
    expect(await replay.step()).toBe(true);
    expect(await replay.step()).toBe(true);
    expect(log).toEqual(['start 0', 'a@0', 'b@0', 'c@0', 'end 0', 'action tool-results', 'start 1', 'd@0']);
    expect(await replay.step()).toBe(false);
    expect(log.at(-1)).toBe('end 1');
    expect(replay.state).toMatchObject({ status: 'ended', position: 4 });
  });

  it('seeks forwards at once, backwards by resetting and replaying', async () => {
    const { replay, log, chunks } = setup();
    await replay.seek(3);
    expect(chunks()).toEqual(['a@0', 'b@0', 'c@0']);
    expect(replay.state.position).toBe(3);
    await replay.seek(1);
    expect(log.slice(log.indexOf('reset'))).toEqual(['reset', 'start 0', 'a@0']);
    expect(replay.state).toMatchObject({ position: 1, status: 'paused' });
    await replay.seek(1);
    expect(log.filter((l) => l === 'reset')).toHaveLength(1);
    await expect(replay.seek(-1)).rejects.toThrow('Cannot seek to -1');
  });

  it('seeking back from the end makes the replay playable again', async () => {
    const { clock, replay, chunks } = setup({ speed: 'fast' });
    replay.play();
    await settle();
    expect(replay.state.status).toBe('ended');
    await replay.seek(0);
    expect(replay.state).toMatchObject({ status: 'paused', position: 0 });
    replay.play();
    await clock.advance(0);
    expect(chunks()).toHaveLength(8);
  });

  it('a seek while playing keeps playing from the new position', async () => {
    const { clock, replay, chunks } = setup();
    replay.play();
    await clock.advance(60);
    await replay.seek(3);
    expect(replay.state.status).toBe('playing');
    await clock.advance(1000);
    expect(chunks()).toEqual(['a@50', 'b@60', 'c@60', 'd@710']);
  });

  it('delivers a chunk in parts where a cut says; the position counts whole chunks', async () => {
    const source = {
      legs: [
        leg(
          0,
          [
            { bytes: text('abcdef'), receivedAt: 1000 },
            { bytes: text('gh'), receivedAt: 1100 },
          ],
          950,
        ),
      ],
      actions: [],
    };
    const parts: string[] = [];
    const replay = createReplay(
      source,
      { onChunk: (c) => parts.push(`${new TextDecoder().decode(c.bytes)}:${c.offset}:${c.last}`) },
      { clock: createManualClock() },
    );
    const seen: { legOffset: number; rest: string }[] = [];
    const cut = (rest: Uint8Array, at: { legOffset: number }) => {
      seen.push({ legOffset: at.legOffset, rest: new TextDecoder().decode(rest) });
      return 2;
    };
    await replay.stepUntil((d) => d.kind === 'chunk', { cut });
    expect(parts).toEqual(['ab:0:false']);
    expect(replay.state.position).toBe(0);
    await replay.stepUntil((d) => d.kind === 'chunk' && d.chunk.last, { cut });
    expect(parts).toEqual(['ab:0:false', 'cd:2:false', 'ef:4:true']);
    expect(replay.state.position).toBe(1);
    expect(seen).toEqual([
      { legOffset: 0, rest: 'abcdef' },
      { legOffset: 2, rest: 'cdef' },
      { legOffset: 4, rest: 'ef' },
    ]);
    // Answers beyond the rest are clamped into it.
    await replay.stepUntil(() => true, { cut: () => 99 });
    expect(parts.at(-1)).toBe('gh:0:true');
  });

  it('plays the rest of a chunk cut by a step at once, then the recorded gaps again', async () => {
    const { clock, replay, chunks } = setup();
    await replay.stepUntil((d) => d.kind === 'chunk', { cut: () => 0 });
    replay.play();
    await clock.advance(0);
    expect(chunks()).toEqual(['a@0']);
    await clock.advance(99);
    expect(chunks()).toEqual(['a@0']);
    await clock.advance(1);
    expect(chunks()).toEqual(['a@0', 'b@100']);
  });

  it('seeking to the position of a partly delivered chunk starts over', async () => {
    const source = { legs: [leg(0, [{ bytes: text('abc'), receivedAt: 0 }])], actions: [] };
    const log: string[] = [];
    const replay = createReplay(
      source,
      { onChunk: (c) => log.push(new TextDecoder().decode(c.bytes)), onReset: () => log.push('reset') },
      { clock: createManualClock() },
    );
    await replay.stepUntil((d) => d.kind === 'chunk', { cut: () => 1 });
    await replay.stepUntil((d) => d.kind === 'chunk', { cut: () => 1 });
    await replay.seek(0);
    expect(log).toEqual(['a', 'b', 'reset']);
    await replay.seek(1);
    expect(log).toEqual(['a', 'b', 'reset', 'abc']);
  });

  it('a seek while playing stays paused when a consumer paused on the way (a recorded prompt)', async () => {
    const clock = createManualClock();
    const paused = createReplay(twoLegSource(), { onChunk: () => {}, onLegEnd: () => paused.pause() }, { clock });
    paused.play();
    await clock.advance(60);
    await paused.seek(4);
    expect(paused.state).toMatchObject({ status: 'paused', position: 4 });
    await clock.advance(5000);
    expect(paused.state).toMatchObject({ status: 'paused', position: 4 });
  });

  describe('with the shared decoder', () => {
    // A real stream cut into 7-byte network chunks: frames span several chunks.
    const bytes = readFixture('json_stream.json.sse');
    const source = (): TimelineSource => ({
      legs: [
        leg(
          0,
          splitEvery(bytes, 7).map((b, i) => ({ bytes: b, receivedAt: i })),
        ),
      ],
      actions: [],
    });

    function decoding() {
      let frames = 0;
      let envelopes = 0;
      let decoder = createSessionDecoder({ onFrame: () => frames++, onEnvelope: () => envelopes++ });
      let legDecoder = decoder.startLeg();
      const replay = createReplay(
        source(),
        {
          onChunk: (c) => legDecoder.push(c.bytes, c.receivedAt),
          onReset: () => {
            frames = 0;
            envelopes = 0;
            decoder = createSessionDecoder({ onFrame: () => frames++, onEnvelope: () => envelopes++ });
            legDecoder = decoder.startLeg();
          },
        },
        { clock: createManualClock() },
      );
      return { replay, frames: () => frames, envelopes: () => envelopes };
    }

    it('steps one frame: exactly one more frame each time', async () => {
      const { replay, frames } = decoding();
      for (let i = 1; i <= 5; i++) {
        const before = frames();
        const delivered = await replay.stepUntil(() => frames() > before);
        expect(frames()).toBe(i);
        expect(delivered).toBeGreaterThan(1);
      }
    });

    it('seeks to an envelope, backwards too', async () => {
      const { replay, envelopes } = decoding();
      await replay.seekUntil(() => envelopes() > 20);
      expect(envelopes()).toBe(21);
      await replay.seekUntil(() => envelopes() > 3);
      expect(envelopes()).toBe(4);
      expect(replay.state.position).toBeLessThan(200);
    });
  });
});
