/**
 * The conformance cases read by other SSE implementations: eventsource-parser (in process,
 * whole, byte by byte and at random splits) and two EventSources reading a loopback server,
 * undici's (Node's global, in a child process started with --experimental-eventsource) and
 * the `eventsource` package. Where each departs from the standard is listed here and in
 * docs/reliability.md; the test fails when a listed difference disappears or a new one
 * appears (after a library or Node upgrade, say).
 */
import { describe, expect, test } from 'vitest';
import {
  eventTypesIn,
  eventsourceParserEvents,
  readWithEventSource,
  type EventSourceImpl,
} from '../../src-main/testing/sse-references';
import { chunkings } from '../testing/chunking';
import { CONFORMANCE_CASES } from '../testing/sse-conformance';

/** eventsource-parser has no end-of-stream call: a CR ending the stream waits for an LF forever. */
const FINAL_CR_PENDING = 'last event of a stream ending in CR never dispatched';
/** eventsource-parser resets its id at every blank line and reports only the id of the event's own block. */
const ID_PER_BLOCK = "an id is reported only with its own block's event";
const EMPTY_ID_IGNORED = 'an empty id does not reset the last event ID';

const CR_STREAMS = [
  'two events (CR)',
  'mixed endings in one stream',
  'CR at the end of a chunk, then another line',
  'CR as the last byte of the stream ends the line',
  'one leading BOM is stripped (CR)',
  'comments between and inside events (CR)',
  'exactly one leading space is stripped (CR)',
  'data lines are joined with LF (CR)',
  'the type is reset after every dispatch (CR)',
  'the last event ID persists across events (CR)',
];

type Reader = 'eventsource-parser' | EventSourceImpl;

/** Case name → how the reader departs from the standard there. */
const DIFFERENCES: Record<Reader, Record<string, string>> = {
  'eventsource-parser': {
    ...Object.fromEntries(CR_STREAMS.map((name) => [name, FINAL_CR_PENDING])),
    'an id in a block without data still sets it': ID_PER_BLOCK,
  },
  undici: {
    'an empty id resets it': EMPTY_ID_IGNORED,
  },
  eventsource: {
    ...Object.fromEntries(CR_STREAMS.map((name) => [name, FINAL_CR_PENDING])),
    'the last event ID persists across events (LF)': ID_PER_BLOCK,
    'the last event ID persists across events (CRLF)': ID_PER_BLOCK,
    'an id in a block without data still sets it': ID_PER_BLOCK,
    'an id containing NUL is ignored': ID_PER_BLOCK,
  },
};

function sameEvents(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('eventsource-parser', () => {
  test.each(CONFORMANCE_CASES)('$rule: $name', (c) => {
    const differs = chunkings(c.bytes).some(({ chunks }) => !sameEvents(eventsourceParserEvents(chunks), c.events));
    expect(differs ? 'differs' : 'conforms').toBe(c.name in DIFFERENCES['eventsource-parser'] ? 'differs' : 'conforms');
  });
});

describe.each(['undici', 'eventsource'] as const)('%s EventSource over loopback HTTP', (impl) => {
  test('departs from the standard exactly where listed', async () => {
    const observed = await readWithEventSource(
      impl,
      CONFORMANCE_CASES.map((c) => ({ bytes: c.bytes, types: eventTypesIn(c.bytes) })),
    );
    expect(observed.map((o) => o.end)).toEqual(CONFORMANCE_CASES.map(() => 'ended'));
    const differing = CONFORMANCE_CASES.filter((c, i) => !sameEvents(observed[i]?.events, c.events)).map((c) => c.name);
    expect(differing.sort()).toEqual(Object.keys(DIFFERENCES[impl]).sort());
  }, 60_000);
});
