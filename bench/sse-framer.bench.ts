/**
 * The SSE framer against eventsource-parser, the floor, measured in the same run on the same
 * chunks. eventsource-parser is timed as a real client runs it (EventSourceParserStream):
 * a streaming TextDecoder per chunk, then `feed`; and with `JSON.parse` of each event, what
 * a client of a JSON stream does at the least (the budget: the framer alone at least as fast
 * as that). Ours takes the bytes directly and also tracks byte offsets, chunk indices and
 * diagnostics.
 *
 * Then linear scaling: N and 4N bytes must take ~4x the time, both for many events and for
 * one 8 MB line arriving in 1 KB chunks (a quadratic line buffer would show ~16x).
 */
import { createParser } from 'eventsource-parser';
import { createSseFramer } from '../src-shared/sse/framer';
import { seededRandom, splitEvery } from '../src-shared/testing/chunking';
import type { BenchTable } from './run';
import { alternate, time } from './timing';

const MB = 1024 * 1024;
const TARGET_RATIO = 2;
const encoder = new TextEncoder();

const WORDS = [
  'the',
  'agent',
  'calls',
  'a',
  'tool',
  'and',
  'streams',
  'text',
  'über',
  'naïve',
  '日本語',
  '中文',
  '😀',
  'résumé',
  '"quoted"',
  'back\\slash',
  'line\\nbreak',
];
const TYPES = ['text', 'thinking', 'tool_call', 'tool_result', 'citation'];

/**
 * About `targetBytes` of what the upstream server sends: one compact JSON envelope per
 * `data:` line, mostly small deltas, some near or over the 2048-byte chunking budget.
 */
export function generateEnvelopes(targetBytes: number, seed = 1): Uint8Array {
  const random = seededRandom(seed);
  const agents = ['11111111-1111-1111-1111-111111111111', '33333333-3333-3333-3333-333333333333'];
  const parts: string[] = [];
  let approx = 0;
  while (approx < targetBytes) {
    const big = random() < 0.05;
    const words = big ? 200 + Math.floor(random() * 150) : 1 + Math.floor(random() * 12);
    let delta = '';
    for (let i = 0; i < words; i++) delta += `${WORDS[Math.floor(random() * WORDS.length)] ?? ''} `;
    const envelope = JSON.stringify({
      type: TYPES[Math.floor(random() * TYPES.length)],
      agent: agents[random() < 0.8 ? 0 : 1],
      final: random() < 0.05,
      delta,
    });
    const event = `data: ${envelope}\n\n`;
    parts.push(event);
    approx += event.length * 1.1;
  }
  parts.push('data: [DONE]\n\n');
  return encoder.encode(parts.join(''));
}

/** One `data:` line of `bytes` bytes, then the blank line. */
function generateLongLine(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes + 8);
  out.set(encoder.encode('data: '));
  out.fill(0x78, 6, 6 + bytes);
  out.set(encoder.encode('\n\n'), 6 + bytes);
  return out;
}

function runOurs(chunks: readonly Uint8Array[]): number {
  let frames = 0;
  const framer = createSseFramer(
    { onFrame: () => frames++, onDiagnostic: () => undefined },
    { maxDataLineBytes: 2048 },
  );
  for (let i = 0; i < chunks.length; i++) framer.push(chunks[i] as Uint8Array, i);
  framer.end();
  return frames;
}

function runEventsourceParser(chunks: readonly Uint8Array[], parseJson = false): number {
  let frames = 0;
  const parser = createParser({
    onEvent: (event) => {
      frames++;
      if (parseJson && event.data.startsWith('{')) JSON.parse(event.data);
    },
  });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return frames;
}

const mbps = (bytes: number, ms: number): string => (bytes / MB / (ms / 1000)).toFixed(0);

function throughput(stream: Uint8Array): BenchTable {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  for (const [label, size] of [
    ['64 KB', 64 * 1024],
    ['1 KB', 1024],
  ] as const) {
    const chunks = splitEvery(stream, size);
    const { oursMs, floorMs, ratio, ours, floor } = alternate(
      () => runOurs(chunks),
      () => runEventsourceParser(chunks),
      9,
    );
    if (ours !== floor) throw new Error(`event counts differ: ours ${ours}, eventsource-parser ${floor}`);
    const withJson = alternate(
      () => runOurs(chunks),
      () => runEventsourceParser(chunks, true),
      9,
    );
    rows.push([
      label,
      ours,
      mbps(stream.length, floorMs),
      mbps(stream.length, withJson.floorMs),
      mbps(stream.length, oursMs),
      `${ratio.toFixed(2)}x`,
      `${withJson.ratio.toFixed(2)}x`,
    ]);
    notes.push(
      `${label} chunks: ours/eventsource-parser = ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'})`,
    );
    notes.push(
      `${label} chunks: ours/(eventsource-parser + JSON.parse) = ${withJson.ratio.toFixed(2)}x (target <= 1x: ${withJson.ratio <= 1 ? 'met' : 'MISSED'})`,
    );
  }
  return {
    title: `SSE framer throughput, ${(stream.length / MB).toFixed(1)} MB of JSON envelopes (median of 9 alternating rounds)`,
    columns: [
      'chunks',
      'events',
      'eventsource-parser MB/s',
      'eventsource-parser + JSON.parse MB/s',
      'ours MB/s',
      'time ours/eventsource-parser',
      'time ours/(… + JSON.parse)',
    ],
    rows,
    notes,
  };
}

function scaling(): BenchTable {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const cases = [
    { label: 'envelopes, 64 KB chunks', make: (n: number) => generateEnvelopes(n, 7), n: 4 * MB, chunk: 64 * 1024 },
    { label: 'one line, 1 KB chunks', make: generateLongLine, n: 2 * MB, chunk: 1024 },
  ];
  for (const c of cases) {
    const small = splitEvery(c.make(c.n), c.chunk);
    const large = splitEvery(c.make(4 * c.n), c.chunk);
    // The two sizes alternate like the contenders of `compare`; "ours" is the 4N run.
    const {
      oursMs: largeMs,
      floorMs: smallMs,
      ratio,
    } = alternate(
      () => runOurs(large),
      () => runOurs(small),
      9,
    );
    const floorLargeMs = time(() => runEventsourceParser(large), 5).ms;
    rows.push([
      c.label,
      `${(c.n / MB).toFixed(0)} MB`,
      smallMs.toFixed(1),
      `${((4 * c.n) / MB).toFixed(0)} MB`,
      largeMs.toFixed(1),
      `${ratio.toFixed(2)}x`,
      floorLargeMs.toFixed(1),
    ]);
    notes.push(
      `${c.label}: 4x the bytes took ${ratio.toFixed(2)}x the time (linear ≈ 4, quadratic ≈ 16: ${ratio < 6 ? 'linear' : 'NOT LINEAR'})`,
    );
  }
  return {
    title: 'SSE framer scaling: N vs 4N bytes (median of 9 alternating rounds)',
    columns: ['stream', 'N', 'ours ms', '4N', 'ours ms', 'ratio', 'eventsource-parser ms (4N)'],
    rows,
    notes,
  };
}

export function run(): BenchTable[] {
  const stream = generateEnvelopes(20 * MB);
  return [throughput(stream), scaling()];
}
