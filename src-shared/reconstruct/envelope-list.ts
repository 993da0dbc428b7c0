import type { Block } from './types';

/**
 * Where a finished block's envelope list can live instead of a number array in the block: a
 * session store knows every envelope's block (its envelope → block column), so a finished
 * block's list is the envelopes of a range that the column gives to the block
 * (src-main/services/sessions/store/block-envelopes.ts). An array of its own cost a finished
 * block of about 15 envelopes some 170 bytes; the range is two small integers.
 */
export interface EnvelopeListSource {
  read(block: Block): readonly number[];
  /** The block's list was assigned again: it is held in the block from now on. */
  forget(block: Block): void;
}

/** The hidden own field behind `envelopes`: the list, or the source that rebuilds it. */
const HELD = 'heldEnvelopes';

type Held = { [HELD]: number[] | EnvelopeListSource };

/**
 * One getter and setter shared by every block, from its birth, as for `content`
 * (block-content.ts: an accessor added later would turn the block into a dictionary).
 */
const ENVELOPES: PropertyDescriptor = {
  get(this: Held): readonly number[] {
    const held = this[HELD];
    return Array.isArray(held) ? held : held.read(this as unknown as Block);
  },
  set(this: Held, value: readonly number[]): void {
    const held = this[HELD];
    if (!Array.isArray(held)) held.forget(this as unknown as Block);
    this[HELD] = value as number[];
  },
  enumerable: true,
  configurable: true,
};

/** Adds an empty `envelopes` list to a block being made (enumerable, as a data property would be). */
export function withEnvelopeList<T extends object>(fields: T): T & { envelopes: readonly number[] } {
  Object.defineProperty(fields, HELD, { value: [], writable: true, enumerable: false, configurable: true });
  Object.defineProperty(fields, 'envelopes', ENVELOPES);
  return fields as T & { envelopes: readonly number[] };
}

/** Appends `seq` to the block's list; a list held by a source comes back into the block first. */
export function pushEnvelope(block: Block, seq: number): void {
  const held = (block as unknown as Partial<Held>)[HELD];
  if (Array.isArray(held)) held.push(seq);
  else block.envelopes = [...block.envelopes, seq];
}

/**
 * Lets `source` keep the block's list: the block drops its array. False for a block not made
 * by `withEnvelopeList` (its list stays where it is).
 */
export function moveEnvelopeList(block: Block, source: EnvelopeListSource): boolean {
  if (!Object.prototype.hasOwnProperty.call(block, HELD)) return false;
  (block as unknown as Held)[HELD] = source;
  return true;
}

/** Whether the block holds its envelope list itself (false once it moved to a source). */
export function holdsEnvelopeList(block: Block): boolean {
  return Array.isArray((block as unknown as Partial<Held>)[HELD]);
}
