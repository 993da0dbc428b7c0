/**
 * The filter language over a whole session in main (SessionStore.filter, what the timeline's
 * filter box runs for fields the renderer does not keep, and what a live session re-runs while
 * it grows): envelopes per second for typical expressions, against a floor measured in the
 * same run — reading every envelope once (what any filter must at least do).
 */
import { parseFilter } from '../src-shared/filter';
import { createSessionStore, type SessionStore } from '../src-main/services/sessions/store/session-store';
import type { BenchOptions, BenchTable } from './run';
import { generateStream, networkChunks } from './streams';
import { alternate } from './timing';

const MB = 1024 * 1024;

const EXPRESSIONS = [
  'type == "text"',
  'agent == "sub 1" && !final',
  '"streams"',
  'delta contains "agent" && type in ["text", "thinking"]',
  'delta matches "(?i)tool.*result"',
  // Decided once per block, not once per envelope of it (each envelope carries its whole block).
  'block.content matches "(?i)tool.*result"',
  'block.kind == "tool_call" && name != "x"',
  'finding.severity >= "warning"',
];

function loadSession(bytes: Uint8Array): SessionStore {
  const data = createSessionStore({
    id: 'bench',
    title: 'bench',
    source: { kind: 'live', method: 'POST', url: 'http://127.0.0.1/agent/run' },
    createdAt: 0,
  });
  const leg = data.openLeg('run', null, 0).index;
  let t = 0;
  for (const chunk of networkChunks(bytes)) data.push(leg, chunk, t++);
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  return data;
}

/** The floor: every envelope read once. */
function readAll(data: SessionStore): number {
  let n = 0;
  for (let seq = 0; seq < data.envelopeCount; seq++) if (data.envelope(seq)) n++;
  return n;
}

export function run(options: BenchOptions): BenchTable[] {
  const sizeMb = options.quick ? 2 : 16;
  const rounds = options.quick ? 3 : 7;
  const data = loadSession(generateStream('json', sizeMb * MB, 'deltas'));
  const envelopes = data.envelopeCount;
  const rows = EXPRESSIONS.map((expression) => {
    const tree = parseFilter(expression);
    const timed = alternate(
      () => data.filter(tree, 1_000_000).seqs.length,
      () => readAll(data),
      rounds,
    );
    return [
      expression,
      timed.ours,
      (envelopes / (timed.oursMs / 1000) / 1e6).toFixed(2),
      timed.oursMs.toFixed(0),
      (envelopes / (timed.floorMs / 1000) / 1e6).toFixed(2),
      timed.ratio.toFixed(2),
    ];
  });
  return [
    {
      title: `Filters in main over a ${sizeMb} MB json session (${envelopes} envelopes; medians of ${rounds} alternating rounds)`,
      columns: ['expression', 'matches', 'M envelopes/s', 'ms', 'floor M envelopes/s', 'time / floor'],
      rows,
      notes: ['floor: reading every envelope of the session once (SessionStore.envelope).'],
    },
  ];
}
