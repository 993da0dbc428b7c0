import type { Envelope } from '../envelope/types';
import { isStreamedKind } from '../envelope/kinds';
import type { Block } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import { utf8ByteLength } from '../text/utf8';
import type {
  DiffInput,
  EnvelopeAspect,
  EnvelopeDifference,
  EnvelopeSummary,
  EnvelopeTypeStats,
  SideTotals,
} from './types';

/**
 * Wire-level facts per (agent pair, envelope type) on each side, and where they differ:
 * how many envelopes, how buffered payloads were chunked, bytes on the wire, escapes, extra
 * fields. None of these change the blocks; the diff view lists them apart from the rows.
 */
export function summariseEnvelopes(
  left: DiffInput,
  right: DiffInput,
  pairOf: { left: ReadonlyMap<string, number>; right: ReadonlyMap<string, number> },
  pairCount: number,
): EnvelopeSummary {
  const l = sideStats(left, pairOf.left, pairCount);
  const r = sideStats(right, pairOf.right, pairCount);
  const differences: EnvelopeDifference[] = [];
  for (let pair = 0; pair < pairCount; pair++) {
    const ls = l.perPair[pair] ?? {};
    const rs = r.perPair[pair] ?? {};
    const types = [...new Set([...Object.keys(ls), ...Object.keys(rs)])];
    for (const type of types) differences.push(...compareType(pair, type, ls[type], rs[type]));
  }
  return { left: l.perPair, right: r.perPair, totals: { left: l.totals, right: r.totals }, differences };
}

const NOTES: Record<EnvelopeAspect, string> = {
  envelopes: 'number of envelopes',
  chunking: 'blocks whose payload was split over several envelopes (largest split in brackets)',
  'wire-bytes': 'bytes of the SSE events on the wire',
  escaping: 'escape sequences on the wire (backslash escapes, character references)',
  extras: 'extra envelope fields',
};

function compareType(
  pair: number,
  type: string,
  l: EnvelopeTypeStats | undefined,
  r: EnvelopeTypeStats | undefined,
): EnvelopeDifference[] {
  const empty = emptyStats();
  const a = l ?? empty;
  const b = r ?? empty;
  const out: EnvelopeDifference[] = [];
  const add = (aspect: EnvelopeAspect, left: number | string, right: number | string): void => {
    if (left !== right) out.push({ pair, type, aspect, left, right, note: NOTES[aspect] });
  };
  add('envelopes', a.envelopes, b.envelopes);
  add('chunking', `${a.chunkedBlocks} (${a.maxEnvelopesPerBlock})`, `${b.chunkedBlocks} (${b.maxEnvelopesPerBlock})`);
  add('wire-bytes', a.wireBytes, b.wireBytes);
  if (a.escapes !== null && b.escapes !== null) add('escaping', a.escapes, b.escapes);
  add('extras', a.extras.join(', '), b.extras.join(', '));
  return out;
}

function emptyStats(): EnvelopeTypeStats {
  return {
    envelopes: 0,
    blocks: 0,
    chunkedBlocks: 0,
    maxEnvelopesPerBlock: 0,
    wireBytes: 0,
    payloadBytes: 0,
    escapes: null,
    extras: [],
  };
}

/** The key an envelope is counted under: its type, or `control:<kind>` for control envelopes. */
export function envelopeKey(envelope: Envelope): string {
  return envelope.control ? `control:${envelope.control}` : envelope.type;
}

function sideStats(
  input: DiffInput,
  pairOf: ReadonlyMap<string, number>,
  pairCount: number,
): { perPair: Record<string, EnvelopeTypeStats>[]; totals: SideTotals } {
  const perPair: Record<string, EnvelopeTypeStats>[] = Array.from({ length: pairCount }, () => ({}));
  const extras = new Map<EnvelopeTypeStats, Set<string>>();
  const framesSeen = new Set<string>();
  const totals: SideTotals = { envelopes: 0, frames: 0, wireBytes: 0, payloadBytes: 0 };
  const statsFor = (agent: string, key: string): EnvelopeTypeStats | undefined => {
    const pair = pairOf.get(agent);
    const table = pair === undefined ? undefined : perPair[pair];
    if (!table) return undefined;
    let stats = table[key];
    if (!stats) {
      stats = emptyStats();
      if (input.frames) stats.escapes = 0;
      table[key] = stats;
      extras.set(stats, new Set());
    }
    return stats;
  };

  for (const envelope of input.envelopes) {
    const payload = utf8ByteLength(envelope.delta);
    totals.envelopes++;
    totals.payloadBytes += payload;
    const frameKey = `${envelope.leg}:${envelope.frame}`;
    const firstOfFrame = !framesSeen.has(frameKey);
    if (firstOfFrame) {
      framesSeen.add(frameKey);
      totals.frames++;
      totals.wireBytes += envelope.byteEnd - envelope.byteStart;
    }
    const stats = statsFor(envelope.agent, envelopeKey(envelope));
    if (!stats) continue;
    stats.envelopes++;
    stats.payloadBytes += payload;
    if (firstOfFrame) {
      stats.wireBytes += envelope.byteEnd - envelope.byteStart;
      const frame = input.frames?.[envelope.leg]?.[envelope.frame];
      if (frame && stats.escapes !== null) stats.escapes += countEscapes(frame);
    }
    for (const key of Object.keys(envelope.extras)) extras.get(stats)?.add(key);
  }
  for (const [stats, keys] of extras) stats.extras = [...keys].sort();
  const bySeq = new Map(input.envelopes.map((e) => [e.seq, e]));
  for (const block of input.blocks) countBlock(block, statsFor(block.agent, block.kind), bySeq);
  return { perPair, totals };
}

/**
 * Chunking of a buffered payload: how many envelopes of the block's own type carried it
 * (attached citations, images and XML open tags are not chunks). Streamed kinds forward the
 * API's deltas one by one, so their count says nothing about chunking.
 */
function countBlock(block: Block, stats: EnvelopeTypeStats | undefined, bySeq: ReadonlyMap<number, Envelope>): void {
  if (!stats) return;
  stats.blocks++;
  if (isStreamedKind(block.kind)) return;
  let chunks = 0;
  for (const seq of block.envelopes) {
    const envelope = bySeq.get(seq);
    if (envelope && !envelope.control && envelope.type === block.kind) chunks++;
  }
  if (chunks > 1) stats.chunkedBlocks++;
  stats.maxEnvelopesPerBlock = Math.max(stats.maxEnvelopesPerBlock, chunks);
}

/** Backslash escapes (`\"`, `\n`, `\uXXXX`…) and character references (`&quot;`, `&#x27;`). */
export function countEscapes(frame: Frame): number {
  const data = frame.data;
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c === 0x5c /* \ */) {
      count++;
      i++;
    } else if (c === 0x26 /* & */ && /^&(#\d+|#x[0-9a-f]+|[a-z]+);/i.test(data.slice(i, i + 12))) {
      count++;
    }
  }
  return count;
}
