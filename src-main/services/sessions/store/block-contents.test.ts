import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdsContent } from '../../../../src-shared/reconstruct/block-content';
import { createReconstructor } from '../../../../src-shared/reconstruct/reconstructor';
import { plainEnvelope } from '../../../../src-shared/reconstruct/reconstructor-harness';
import type { Block } from '../../../../src-shared/reconstruct/types';
import { BlockContents } from './block-contents';
import { BlockEnvelopes } from './block-envelopes';
import { BlockIndex } from './block-index';
import { EnvelopeTable } from './envelope-table';
import { SpoolFile } from './spool-file';

/**
 * The store's side of reconstruction, as decoder-wiring.ts wires it: each envelope stored,
 * then reconstructed, and each block change noted. `deferNotes`: block changes are held and
 * noted only when `noteDeferred` runs (a block noted long after its deltas came).
 */
function storeSide(options: { maxBlockChars?: number; deferNotes?: boolean } = {}) {
  const table = new EnvelopeTable(() => undefined, new SpoolFile());
  const index = new BlockIndex(table, new BlockContents(table), new BlockEnvelopes(table), () => undefined);
  const deferred: Block[] = [];
  const r = createReconstructor(
    { onBlock: (block) => (options.deferNotes ? deferred.push(block) : index.note(block)) },
    { releasesClosedText: true, ...(options.maxBlockChars ? { maxBlockChars: options.maxBlockChars } : {}) },
  );
  let seq = 0;
  const push = (agent: string, type: string, delta: string, final = false): void => {
    const envelope = plainEnvelope(seq++, agent, type, delta, final);
    table.add(envelope);
    r.push(envelope);
  };
  const noteDeferred = (): void => {
    for (const block of deferred.splice(0)) index.note(block);
  };
  return { push, noteDeferred, blocks: () => r.blocks() };
}

/** Deltas of every width UTF-16 and UTF-8 differ on: ASCII, accents, CJK, a surrogate pair. */
const deltas = Array.from({ length: 600 }, (_, i) => ['word ', 'é ', '数据 ', '🙂 '][i % 4] as string);

afterEach(() => vi.restoreAllMocks());

describe("BlockContents.release: a finished block's text goes to disk when its deltas rebuild it", () => {
  it('checks a block by the lengths of its deltas counted as they came, without measuring its text', () => {
    const measured = vi.spyOn(Buffer, 'byteLength');
    const s = storeSide();
    for (const delta of deltas) s.push('a', 'text', delta);
    s.push('a', 'text', '', true);
    const [block] = s.blocks();
    expect(block && holdsContent(block)).toBe(false);
    expect(measured).not.toHaveBeenCalled();
    expect(block?.content).toBe(deltas.join(''));
  });

  it('compares UTF-8 lengths for a block whose deltas were no longer at hand when it was noted', () => {
    const measured = vi.spyOn(Buffer, 'byteLength');
    const s = storeSide({ deferNotes: true });
    for (const delta of deltas) s.push('a', 'text', delta);
    s.push('a', 'text', '', true);
    s.noteDeferred();
    const [block] = s.blocks();
    expect(block && holdsContent(block)).toBe(false);
    expect(measured).toHaveBeenCalled();
    expect(block?.content).toBe(deltas.join(''));
  });

  it('keeps in memory a text its deltas do not rebuild (cut at the held-content cap)', () => {
    const s = storeSide({ maxBlockChars: 100 });
    for (const delta of deltas) s.push('a', 'text', delta);
    s.push('a', 'text', '', true);
    const [block] = s.blocks();
    expect(block?.omittedChars).toBeGreaterThan(0);
    expect(block && holdsContent(block)).toBe(true);
    expect(block?.content).toBe(deltas.join('').slice(0, 100));
  });
});
