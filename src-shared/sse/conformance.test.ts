/**
 * WHATWG conformance, rule by rule: every case of src-shared/testing/sse-conformance.ts
 * must dispatch the same events, end with the same last event ID and retry values and give
 * the same findings whole, byte by byte, at seeded random splits and at the splits the case
 * names (a CRLF across chunks, a character cut at every byte).
 */
import { describe, expect, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import { CONFORMANCE_CASES, type ConformanceCase } from '../testing/sse-conformance';
import { frameChunks } from './collect';

function observed(chunks: Uint8Array[]) {
  const result = frameChunks(chunks);
  return {
    events: result.frames.map((f) => ({ event: f.event, data: f.data, id: f.id })),
    lastEventId: result.summary.lastEventId,
    retries: result.retries,
    findings: result.diagnostics.map((d) => d.rule),
  };
}

function expected(c: ConformanceCase) {
  return { events: c.events, lastEventId: c.lastEventId, retries: c.retries, findings: c.findings };
}

const groups = new Map<string, ConformanceCase[]>();
for (const c of CONFORMANCE_CASES) groups.set(c.rule, [...(groups.get(c.rule) ?? []), c]);

describe.each([...groups.keys()])('%s', (rule) => {
  test.each(groups.get(rule) ?? [])('$name', (c) => {
    const splittings = [
      ...chunkings(c.bytes),
      ...(c.extraChunkings ?? []).map((chunks, i) => ({ name: `split ${i}`, chunks })),
    ];
    for (const { name, chunks } of splittings) expect(observed(chunks), name).toEqual(expected(c));
  });
});

test('every rule of the standard has cases', () => {
  expect([...groups.keys()]).toEqual([
    'line endings',
    'byte order mark',
    'comments',
    'field parsing',
    'data buffer',
    'event type',
    'last event ID',
    'retry',
    'dispatch at the end of the stream',
    'long lines and many lines',
    'UTF-8 decoding',
  ]);
});
