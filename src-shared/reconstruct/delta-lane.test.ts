import { describe, expect, it } from 'vitest';
import { seededRandom } from '../sse/rechunk';
import type { DiagnosticInit } from '../diagnostics/types';
import { NO_EXTRAS, type Envelope } from '../envelope/types';
import { createReconstructor } from './reconstructor';
import { A, B } from './reconstructor-harness';

/**
 * The delta lane (delta-lane.ts) takes only the deltas the full checks would append to the
 * same block. A plain delta carries the shared NO_EXTRAS; the same delta with an empty extras
 * object of its own never takes the lane. So one envelope sequence decoded both ways must give
 * the same blocks and findings.
 */

const TYPES = ['text', 'text', 'text', 'thinking', 'tool_call'] as const;
const DELTAS = ['the ', 'stream ', 'the ', '', 'ok\n', '{"q":1}', 'stream '];

/** An envelope without its extras, and the id it carries in them, if any. */
type Shape = Omit<Envelope, 'extras'> & { id?: string };

function randomSession(seed: number, length: number): Shape[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const envelopes: Shape[] = [];
  let leg = 0;
  let offset = 0;
  for (let seq = 0; seq < length; seq++) {
    // Long runs of one block's deltas, as streams have them, broken by everything else.
    const previous = envelopes[seq - 1];
    const repeat = previous !== undefined && random() < 0.7;
    if (random() < 0.02) leg++;
    const delta = pick(DELTAS);
    envelopes.push({
      seq,
      frame: seq,
      leg,
      dialect: 'json',
      agent: repeat ? previous.agent : pick([A, A, B]),
      type: repeat ? previous.type : pick(TYPES),
      final: random() < 0.08,
      delta,
      byteStart: offset,
      byteEnd: offset + 40 + delta.length,
      receivedAt: 0,
      ...(random() < 0.01 ? { control: 'block-open' as const } : {}),
      // An id in the extras: a block of another id may begin (block.id-changed).
      ...(random() < 0.05 ? { id: pick(['x', 'y']) } : {}),
    });
    offset += 40 + delta.length;
  }
  return envelopes;
}

function decode(envelopes: readonly Shape[], shared: boolean) {
  const diagnostics: DiagnosticInit[] = [];
  const changes: string[] = [];
  const r = createReconstructor({
    onBlock: (b) => changes.push(`${b.id} ${b.status} ${b.content.length}`),
    onDiagnostic: (d) => diagnostics.push(d),
  });
  for (const { id, ...e } of envelopes) r.push({ ...e, extras: id !== undefined ? { id } : shared ? NO_EXTRAS : {} });
  r.end();
  const blocks = r.blocks().map((b) => ({ ...b, envelopes: [...b.envelopes] }));
  return { blocks, diagnostics, changes };
}

describe('the delta lane', () => {
  it.each([1, 2, 3, 42, 1337])('gives the blocks and findings of the full checks (seed %i)', (seed) => {
    const envelopes = randomSession(seed, 3000);
    const laned = decode(envelopes, true);
    const full = decode(envelopes, false);
    expect(laned.blocks.length).toBeGreaterThan(50);
    expect(laned.blocks).toEqual(full.blocks);
    expect(laned.diagnostics).toEqual(full.diagnostics);
    expect(laned.changes).toEqual(full.changes);
    // The sequences reach what the lane must step aside for.
    const rules = new Set(full.diagnostics.map((d) => d.rule));
    expect(rules).toContain('block.restarted');
    expect(rules).toContain('block.not-finalised');
    expect(rules).toContain('block.id-changed');
  });

  it('keeps two agents that interleave their deltas apart', () => {
    const r = createReconstructor();
    let seq = 0;
    const delta = (agent: string, text: string): void =>
      r.push({
        seq,
        frame: seq++,
        leg: 0,
        dialect: 'json',
        agent,
        type: 'text',
        final: false,
        delta: text,
        extras: NO_EXTRAS,
        byteStart: 0,
        byteEnd: 0,
        receivedAt: 0,
      });
    delta(A, 'a1 ');
    delta(A, 'a2 ');
    delta(B, 'b1 ');
    delta(A, 'a3');
    delta(B, 'b2');
    expect(r.blocks().map((b) => [b.agent, b.content, b.envelopes])).toEqual([
      [A, 'a1 a2 a3', [0, 1, 3]],
      [B, 'b1 b2', [2, 4]],
    ]);
  });
});
