import { describe, expect, it, test } from 'vitest';
import { listUnknownFixtures, readUnknownFixture } from '../../../src-main/testing/fixtures';
import type { Envelope } from '../../envelope/types';
import { createSessionDecoder, decodeBytes, decodeLegs, type ChunkInput } from '../../pipeline/session-decoder';
import type { Detection } from '../detection';
import { dialectLabel } from '../registry';
import { chunkings } from '../../testing/chunking';
import { DEFAULT_EVENT_TYPE, eventTypeOf } from './decoder';

const encoder = new TextEncoder();
/** A stream of `data:` events (an `event:` field where given as `[name, data]`). */
const stream = (...events: (string | readonly [string, string])[]): Uint8Array =>
  encoder.encode(
    events.map((e) => (typeof e === 'string' ? `data: ${e}\n\n` : `event: ${e[0]}\ndata: ${e[1]}\n\n`)).join(''),
  );
const asEvents = (bytes: Uint8Array) => decodeBytes(bytes, { format: 'json-events' });
const shown = (envelopes: readonly Envelope[]) =>
  envelopes.map((e) => ({ type: e.type, delta: e.delta, extras: e.extras, control: e.control }));

describe('the type of a generic event', () => {
  test.each([
    ['type first', { type: 'a', event: 'b', object: 'c' }, '', 'a'],
    ['then event', { event: 'b', object: 'c' }, '', 'b'],
    ['then object', { object: 'chat.completion.chunk' }, '', 'chat.completion.chunk'],
    ['a member that is no string is passed over', { type: 5, event: 'b' }, '', 'b'],
    ['an empty name is passed over', { type: '' }, 'quote', 'quote'],
    ['a "name" of 201 characters is data, not a type', { type: 'x'.repeat(201) }, '', DEFAULT_EVENT_TYPE],
    ['none: the SSE event name', { kind: 'tick' }, 'quote', 'quote'],
    ['none and no event field: what an EventSource dispatches', { kind: 'tick' }, '', 'message'],
  ] as const)('%s', (_name, object, sseEvent, type) => {
    expect(eventTypeOf(object, sseEvent)).toBe(type);
  });

  it('text has no members: the SSE event name, else message', () => {
    expect(eventTypeOf(undefined, 'log')).toBe('log');
    expect(eventTypeOf(undefined, '')).toBe('message');
  });
});

describe('what the fallback is called: JSON events, text events, or both', () => {
  const labelOf = (bytes: Uint8Array, format: 'auto' | 'json-events' = 'auto'): string => {
    const result = decodeBytes(bytes, { format });
    return dialectLabel(result.formats[0] ?? '?', result.detections[0] ?? undefined);
  };

  it('plain-text events are text events, never "JSON events"', () => {
    expect(labelOf(stream('starting build', 'step 1/3'))).toBe('text events');
    expect(labelOf(readUnknownFixture('plain-text.sse'))).toBe('text events');
  });

  it('JSON objects are JSON events, whether detected or chosen; blank keep-alives change nothing', () => {
    expect(labelOf(readUnknownFixture('ticks.sse'))).toBe('JSON events');
    expect(labelOf(stream('{"kind":"tick"}', ' ', '{"kind":"tock"}'), 'json-events')).toBe('JSON events');
  });

  it('a feed of both says both; before any event it is either', () => {
    expect(labelOf(stream('{"kind":"tick"}', 'plain line'))).toBe('JSON and text events');
    expect(dialectLabel('json-events', { by: 'chosen' })).toBe('JSON or text events');
  });

  it('a live leg announces its dialect again when what its events carry changes, not at every event', () => {
    const announced: Detection[] = [];
    const decoder = createSessionDecoder({ onDialect: (_leg, _format, detection) => announced.push(detection) });
    const leg = decoder.startLeg({ format: 'json-events' });
    leg.push(stream('{"n":1}', '{"n":2}'));
    expect(announced.at(-1)).toEqual({ by: 'chosen', data: 'json' });
    leg.push(stream('{"n":3}', 'plain'));
    leg.end();
    expect(announced.map((d) => d.data)).toEqual([undefined, 'json', 'mixed']);
  });
});

describe('the json-events dialect', () => {
  it('shows each event as it came: one event envelope, its data the delta, its members the extras', () => {
    const result = asEvents(stream('{"kind":"tick","n":1}', ['quote', '{"symbol":"ACME","price":1.5}']));
    expect(shown(result.envelopes)).toEqual([
      { type: 'message', delta: '{"kind":"tick","n":1}', extras: { kind: 'tick', n: 1 }, control: 'event' },
      {
        type: 'quote',
        delta: '{"symbol":"ACME","price":1.5}',
        extras: { symbol: 'ACME', price: 1.5 },
        control: 'event',
      },
    ]);
    expect(result.envelopes.every((e) => e.final && e.dialect === 'json-events')).toBe(true);
  });

  it('plain text, arrays and JSON that does not parse are text events; only data that starts like an object is reported', () => {
    const result = asEvents(
      stream('starting build', '[1,2]', '{"kind":"tick","n":', '  {"type":"spaced"}', '{main} ready', '[{"a":'),
    );
    expect(result.envelopes.map((e) => [e.type, e.delta, e.extras])).toEqual([
      ['message', 'starting build', {}],
      ['message', '[1,2]', {}],
      ['message', '{"kind":"tick","n":', {}],
      ['spaced', '  {"type":"spaced"}', {}],
      ['message', '{main} ready', {}],
      ['message', '[{"a":', {}],
    ]);
    // What it sees, as an info: the feed may be JSON with broken events, or text that starts with "{".
    expect(result.diagnostics.map((d) => [d.rule, d.severity, d.at.frame])).toEqual([
      ['json-events.invalid-json', 'info', 2],
      ['json-events.invalid-json', 'info', 4],
    ]);
    expect(result.diagnostics[0]?.message).toMatch(
      /^Event 2 starts like a JSON object but is not valid JSON \(.+\): in a feed of JSON objects, a broken one; shown as text, as it came\. Data: "\{\\"kind\\":\\"tick\\",\\"n\\":"$/,
    );
  });

  it('builds no block, even from members named like an envelope or an agent content kind', () => {
    const result = asEvents(
      stream(
        '{"type":"text","agent":"a","final":false,"delta":"never closed"}',
        '{"type":"tool_call","id":"t1","name":"f"}',
        '{"type":"error","message":"boom"}',
      ),
    );
    expect(result.blocks).toEqual([]);
    expect(result.envelopes.map((e) => e.type)).toEqual(['text', 'tool_call', 'error']);
    // An event called "error" is the stream's word, not the inspector's: the stream did not end by error.
    expect(result.ends[0]?.stream.error).toBeNull();
    expect(result.diagnostics).toEqual([]);
  });

  it("keeps the base-field names out of the extras (the envelope's own fields show them) and __proto__ a plain member", () => {
    const [event] = asEvents(
      stream('{"agent":"x","final":1,"delta":"d","__proto__":{"polluted":true},"kind":"k"}'),
    ).envelopes;
    expect(Object.keys(event?.extras ?? {})).toEqual(['__proto__', 'kind']);
    expect(Object.getPrototypeOf(event?.extras)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('claims no terminal event and no [DONE]: its end says only that the transport ended', () => {
    const result = asEvents(stream('{"kind":"tick"}', '{"type":"done"}'));
    expect(result.ends[0]?.stream).toMatchObject({ terminal: null, error: null, transportOnly: 'unclaimed' });
    expect(result.diagnostics.map((d) => d.rule)).not.toContain('stream.missing-done');
  });

  it('is never detected: it only decodes what no dialect claims', () => {
    const result = decodeBytes(stream('{"kind":"tick"}'));
    expect(result.formats).toEqual(['json-events']);
    expect(result.detections).toEqual([{ by: 'fallback', data: 'json' }]);
  });
});

describe('chunking invariance', () => {
  test.each(listUnknownFixtures())('%s: the same envelopes whole, byte by byte and at random cuts', (name) => {
    const bytes = readUnknownFixture(name);
    const decode = (chunks: readonly Uint8Array[]) => {
      const result = decodeLegs([chunks.map((c): ChunkInput => ({ bytes: c }))]);
      return {
        formats: result.formats,
        envelopes: shown(result.envelopes),
        rules: result.diagnostics.map((d) => d.rule),
      };
    };
    const whole = decode([bytes]);
    expect(whole.envelopes.length).toBeGreaterThan(0);
    for (const { name: how, chunks } of chunkings(bytes)) expect(decode(chunks), how).toEqual(whole);
  });
});
