import { describe, expect, it, test } from 'vitest';
import { listUnknownFixtures, readUnknownFixture } from '../../../src-main/testing/fixtures';
import { blockEndFacts, endStatusOf, type EndFacts, type EndStatus } from '../../pipeline/end-status';
import { decodeBytes, decodeLegs } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { chunkings } from '../../testing/chunking';
import { encodeUtf8 } from '../../text/utf8';

/**
 * Streams no dialect claims: each is shown event by event with no claim the inspector cannot
 * back. No block (so none "unterminated"), no envelope field required, no terminal event
 * expected (so never "truncated" when healthy), and an end status of the transport alone.
 */

function statusOf(result: DecodeResult, outcome?: EndFacts['outcome']): EndStatus {
  return endStatusOf({
    stream: result.ends.at(-1)?.stream ?? null,
    ...blockEndFacts(result.blocks, result.ends.length - 1),
    ...(outcome ? { outcome } : {}),
  });
}

/** Findings that say something is wrong: infos (no dialect claimed it, data lines joined) say nothing of the kind. */
const claims = (result: DecodeResult) =>
  result.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.rule}: ${d.message}`);

describe('unknown streams: no false claim', () => {
  test.each(listUnknownFixtures().filter((name) => !name.includes('-cut')))(
    '%s: generic events, no block, no finding, "ended" (or "done" at [DONE]) whatever the chunking',
    (name) => {
      const bytes = readUnknownFixture(name);
      // `data: [DONE]`, the one terminator the pipeline reads in every stream (the legacy Completions API ends so).
      const ending = new TextDecoder().decode(bytes).trimEnd().endsWith('data: [DONE]') ? 'done' : 'ended';
      for (const { name: how, chunks } of chunkings(bytes)) {
        const result = decodeLegs([chunks.map((c) => ({ bytes: c }))]);
        expect(result.formats, how).toEqual(['json-events']);
        // Plain text is labelled text events, never "JSON events".
        expect(result.detections, how).toEqual([{ by: 'fallback', data: name === 'plain-text.sse' ? 'text' : 'json' }]);
        expect(result.blocks, how).toEqual([]);
        expect(claims(result), how).toEqual([]);
        expect(
          result.diagnostics.filter((d) => d.rule === 'stream.format-undetected'),
          how,
        ).toHaveLength(1);
        expect(statusOf(result), how).toMatchObject({ kind: ending, label: ending });
      }
    },
  );

  it('the events keep their own types, for filters and the timeline', () => {
    const types = (name: string) => [...new Set(decodeBytes(readUnknownFixture(name)).envelopes.map((e) => e.type))];
    expect(types('ticks.sse')).toEqual(['message']);
    expect(types('stock-ticker.sse')).toEqual(['quote', 'status']);
    expect(types('github-events.sse')).toEqual(['ping', 'push', 'issues']);
    expect(types('typed-events.sse')).toEqual(['job.started', 'progress', 'log', 'text', 'error', 'job.finished']);
    expect(decodeBytes(readUnknownFixture('plain-text.sse')).envelopes.map((e) => e.delta)).toContain(
      'warning: unused variable `x`\n  --> src/main.rs:4:9',
    );
  });

  it('a feed cut inside an event is "cut off", after its complete events; never "truncated"', () => {
    const result = decodeBytes(readUnknownFixture('ticks-cut.sse'));
    expect(result.formats).toEqual(['json-events']);
    expect(result.blocks).toEqual([]);
    expect(result.diagnostics.map((d) => d.rule)).toEqual(['stream.format-undetected', 'sse.unterminated-event']);
    expect(statusOf(result)).toEqual({
      kind: 'cut',
      label: 'cut off',
      reason: 'The bytes stopped inside an event after 12 complete events.',
    });
  });

  it('[DONE], the terminator the pipeline reads in every stream, still makes one done', () => {
    const result = decodeBytes(encodeUtf8('data: {"kind":"tick"}\n\ndata: [DONE]\n\n'));
    expect(result.formats).toEqual(['json-events']);
    expect(statusOf(result)).toMatchObject({ kind: 'done', reason: 'The stream ended with [DONE].' });
  });

  it('a connection that broke between events is "cut off" with the network error', () => {
    const result = decodeBytes(readUnknownFixture('ticks.sse'));
    expect(statusOf(result, { kind: 'failed', message: 'socket hang up' })).toMatchObject({
      kind: 'cut',
      reason: 'The stream broke off after 12 complete events: socket hang up',
    });
    expect(statusOf(result, { kind: 'stopped' }).kind).toBe('stopped');
  });

  it('an empty body: no event, no dialect, no finding, and "ended" (nothing says it should have had events)', () => {
    const result = decodeBytes(new Uint8Array(0));
    expect(result.formats).toEqual([null]);
    expect(result.diagnostics).toEqual([]);
    expect(statusOf(result)).toMatchObject({ kind: 'ended' });
    expect(statusOf(result).reason).toMatch(/^The body ended between events, after no event;/);
  });

  it('an HTML error page as the body: no event, no block or envelope finding, "ended", never "truncated"', () => {
    const page = encodeUtf8(
      '<!DOCTYPE html>\n<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n',
    );
    const result = decodeBytes(page);
    expect(result.formats).toEqual([null]);
    expect(result.blocks).toEqual([]);
    // The framer still says that an EventSource would drop these lines: that is true of the bytes.
    expect(new Set(result.diagnostics.map((d) => d.rule))).toEqual(new Set(['sse.ignored-line']));
    expect(statusOf(result).kind).toBe('ended');
  });

  it('{"type":"ping"} keep-alives and bare {"type":"error"} objects are not taken for the Anthropic API', () => {
    const bytes = encodeUtf8(
      ['{"type":"ping"}', '{"type":"update","n":1}', '{"type":"error","message":"retrying"}', '{"type":"ping"}']
        .map((d) => `data: ${d}\n\n`)
        .join(''),
    );
    const result = decodeBytes(bytes);
    expect(result.formats).toEqual(['json-events']);
    expect(claims(result)).toEqual([]);
    expect(statusOf(result).kind).toBe('ended');
  });

  it('a leg shown as generic events switches to the first dialect a later event claims', () => {
    const envelope = JSON.stringify({ type: 'text', agent: 'a', final: true, delta: 'hi' });
    const lines = [...Array.from({ length: 8 }, (_, i) => `log line ${i}`), envelope, '[DONE]'];
    const result = decodeBytes(encodeUtf8(lines.map((d) => `data: ${d}\n\n`).join('')));
    expect(result.formats).toEqual(['json']);
    expect(result.detections).toEqual([{ by: 'content' }]);
    expect(result.envelopes.map((e) => e.dialect)).toEqual([...Array<string>(8).fill('json-events'), 'json', 'json']);
    expect(result.blocks.map((b) => [b.kind, b.content])).toEqual([['text', 'hi']]);
  });
});
