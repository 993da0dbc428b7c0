/**
 * Where the decoder's time goes, by stage: a CPU profile (node:inspector) of the whole
 * session decoder over a seeded stream of each format, its samples' self time summed by the
 * source folder of the function they fell in. Profile before optimising: this table says
 * which stage a change should aim at. UTF-8 decoding is a stage of its own; any other
 * built-in (TextEncoder.encodeInto, regular expressions, …) counts for the stage of the
 * project function that called it. JSON.parse never shows as a frame of its own in V8's
 * sampling profiles: its time is in its caller's stage (dialect decoding); "other" is the remainder (runtime internals, the
 * benchmark's own loop).
 */
import { Session, type Profiler } from 'node:inspector/promises';
import { createSessionDecoder } from '../src-shared/pipeline/session-decoder';
import type { BenchOptions, BenchTable } from './run';
import { generateStream, networkChunks, STREAM_FORMATS } from './streams';

const MB = 1024 * 1024;

/** Stage of a profile node, by its function's source path or, for built-ins, its name. */
const STAGES: readonly [stage: string, test: (url: string, name: string) => boolean][] = [
  ['garbage collection', (_u, name) => name === '(garbage collector)'],
  ['UTF-8 decoding', (url, name) => isBuiltIn(url) && (name === 'decode' || name === 'decodeUTF8')],
  ['framing (sse)', (url) => url.includes('/src-shared/sse/')],
  ['statistics', (url) => url.includes('/src-shared/diagnostics/chunk-stats') || url.includes('/budget.')],
  ['in-text stage (inline)', (url) => url.includes('/src-shared/inline/')],
  [
    'dialect decoding + validation',
    (url) =>
      url.includes('/src-shared/dialects/') || url.includes('/src-shared/json/') || url.includes('/src-shared/python/'),
  ],
  ['reconstruction', (url) => url.includes('/src-shared/reconstruct/')],
  ['diagnostics', (url) => url.includes('/src-shared/diagnostics/')],
  ['pipeline + store', (url) => url.includes('/src-shared/pipeline/') || url.includes('/src-shared/bytes/')],
];

function isBuiltIn(url: string): boolean {
  return url === '' || url.startsWith('node:');
}

/** Each node's stage: its own, or for an unnamed built-in the stage of its nearest project caller. */
function stagesOf(nodes: readonly Profiler.ProfileNode[]): Map<number, string> {
  const parent = new Map<number, Profiler.ProfileNode>();
  for (const node of nodes) for (const child of node.children ?? []) parent.set(child, node);
  const ownStage = (node: Profiler.ProfileNode): string | undefined => {
    const { url, functionName } = node.callFrame;
    for (const [stage, test] of STAGES) if (test(url, functionName)) return stage;
    return isBuiltIn(url) ? undefined : 'other';
  };
  const out = new Map<number, string>();
  for (const node of nodes) {
    let stage: string | undefined;
    // Walks up the call tree (a loop, not recursion): built-ins take their caller's stage.
    for (let at: Profiler.ProfileNode | undefined = node; at && stage === undefined; at = parent.get(at.id))
      stage = ownStage(at);
    out.set(node.id, stage ?? 'other');
  }
  return out;
}

function decode(chunks: readonly Uint8Array[]): void {
  const session = createSessionDecoder({});
  const leg = session.startLeg();
  for (let i = 0; i < chunks.length; i++) leg.push(chunks[i] as Uint8Array, i);
  leg.end();
  session.finish();
}

/**
 * The decoder's code settles (optimised, inline caches warm) only after a few decodes of a
 * stream, and one profiled decode gives few samples: warm up, then profile several.
 */
const WARM_UPS = 3;
const PROFILED_DECODES = 5;

/** Samples per stage of the profiled decodes (each sample stands for one sampling interval). */
async function profile(session: Session, chunks: readonly Uint8Array[]): Promise<Map<string, number>> {
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  for (let i = 0; i < PROFILED_DECODES; i++) decode(chunks);
  const { profile: result } = await session.post('Profiler.stop');
  const stageById = stagesOf(result.nodes);
  const totals = new Map<string, number>();
  for (const sample of result.samples ?? []) {
    const stage = stageById.get(sample) ?? 'other';
    totals.set(stage, (totals.get(stage) ?? 0) + 1);
  }
  return totals;
}

export async function run({ quick }: BenchOptions): Promise<BenchTable[]> {
  const sizeMb = quick ? 4 : 16;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  const stages = [...STAGES.map(([stage]) => stage), 'other'];
  const shares = new Map<string, string[]>(stages.map((stage) => [stage, []]));
  try {
    for (const format of STREAM_FORMATS) {
      const chunks = networkChunks(generateStream(format, sizeMb * MB, 'deltas'));
      for (let i = 0; i < WARM_UPS; i++) decode(chunks); // the profile is of optimised code
      const totals = await profile(session, chunks);
      const all = [...totals.values()].reduce((a, b) => a + b, 0);
      for (const stage of stages) shares.get(stage)?.push(`${(((totals.get(stage) ?? 0) / all) * 100).toFixed(0)} %`);
    }
  } finally {
    session.disconnect();
  }
  return [
    {
      title: `Decoder self time by stage, ${sizeMb} MB delta-heavy streams (CPU profile of ${PROFILED_DECODES} decodes after ${WARM_UPS} to warm up, 200 µs sampling)`,
      columns: ['stage', ...STREAM_FORMATS],
      rows: stages.map((stage) => [stage, ...(shares.get(stage) ?? [])]),
    },
  ];
}
