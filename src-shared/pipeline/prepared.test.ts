import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { everyStreamFixture, FIXTURES_DIR } from '../../src-main/testing/fixtures';
import { fuzzGrammar } from '../dialects/json-envelope/fuzz';
import { seededRandom } from '../sse/rechunk';
import { generateStreams } from '../testing/fuzz-streams';
import { concatBytes } from '../bytes/held-bytes';
import { stringifyJson } from '../json/tree';
import { healthyEnvelopes } from '../testing/healthy-envelopes';
import { createPreparedCursor, readSpan, type PreparedEnvelopes } from './prepared';
import { decodeLegs } from './session-decoder';

/** `bytes` read ahead in spans of `spanBytes` (cut anywhere), counting the envelopes the dialect takes. */
function preparedIn(bytes: Uint8Array, spanBytes: number): PreparedEnvelopes & { taken: number } {
  const cursor = createPreparedCursor();
  for (let start = 0; start < bytes.length; start += spanBytes)
    cursor.add(readSpan(bytes.subarray(start, start + spanBytes), start, 2048));
  const counted = {
    taken: 0,
    take: (frame: Parameters<PreparedEnvelopes['take']>[0]) => {
      const fields = cursor.take(frame);
      if (fields) counted.taken++;
      return fields;
    },
  };
  return counted;
}

/** The decode in one thread, and with envelopes read ahead: everything but the read-ahead count. */
function bothWays(bytes: Uint8Array, spanBytes: number) {
  // Network-like chunks: the read-ahead spans do not follow them.
  const chunks = [];
  for (let at = 0; at < bytes.length; at += 777) chunks.push({ bytes: bytes.subarray(at, at + 777) });
  const prepared = preparedIn(bytes, spanBytes);
  return {
    alone: decodeLegs([chunks]),
    ahead: decodeLegs([chunks], { prepared }),
    taken: prepared.taken,
  };
}

describe('envelopes read ahead in spans give the decode in order, exactly', () => {
  it.each(everyStreamFixture())('%s', (path) => {
    const { alone, ahead } = bothWays(new Uint8Array(readFileSync(path)), 301);
    expect(ahead).toEqual(alone);
  });

  it('takes the envelopes of the healthy events of a JSON envelope stream', () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES_DIR, 'json_stream.json.sse')));
    const { alone, taken } = bothWays(bytes, 4096);
    // Only events cut by a span's edge, and those with findings, are read in order.
    expect(taken).toBeGreaterThan(alone.envelopes.length * 0.8);
  });

  it('on a generated stream of healthy and broken envelopes, cut every way', () => {
    const random = seededRandom(26);
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 6; i++)
      parts.push(healthyEnvelopes(random, 48_000), generateStreams(fuzzGrammar, random, 16_000));
    const bytes = concatBytes(parts);
    for (const spanBytes of [97, 4096, 65_536]) {
      const { alone, ahead, taken } = bothWays(bytes, spanBytes);
      // Spans shorter than most events hold few whole ones.
      expect(taken).toBeGreaterThan(spanBytes < 1000 ? 0 : alone.envelopes.length / 2);
      expect(ahead.diagnostics).toEqual(alone.diagnostics);
      // As text, written without recursion: the fuzz streams' extras nest thousands deep.
      expect(stringifyJson(ahead.envelopes)).toBe(stringifyJson(alone.envelopes));
      expect(stringifyJson(ahead)).toBe(stringifyJson(alone));
    }
  });

  it('never takes an envelope for an event whose bytes differ from the one read ahead', () => {
    const event = 'data: {"type":"text","agent":"a","final":false,"delta":"x"}\n\n';
    const cursor = createPreparedCursor();
    cursor.add(readSpan(new TextEncoder().encode(event), 0, 2048));
    const frame = { seq: 0, byteStart: 0, byteEnd: event.length, data: '{"type":"text"}' };
    expect(cursor.take(frame as Parameters<PreparedEnvelopes['take']>[0])).toBeUndefined();
  });
});
