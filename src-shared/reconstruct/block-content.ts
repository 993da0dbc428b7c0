import type { Block } from './types';

/**
 * Where a finished block's content can live instead of in the block: a session store keeps
 * it on disk and rebuilds it when read (src-main/services/sessions/block-contents.ts).
 */
export interface ContentSource {
  read(block: Block): string;
  /** The block's content was assigned again: it is held in the block from now on. */
  forget(block: Block): void;
}

/** The hidden own field behind `content`: the text, or the source that rebuilds it. */
const HELD = 'heldContent';

type Held = { [HELD]: string | ContentSource };

/**
 * One getter and setter shared by every block: `content` reads the text the block holds or
 * asks its source. Added to each new block by the same transitions, so blocks keep one fast
 * shape; reconfiguring a data property into an accessor later would turn each block into a
 * dictionary (about three times its size).
 */
const CONTENT: PropertyDescriptor = {
  get(this: Held): string {
    const held = this[HELD];
    return typeof held === 'string' ? held : held.read(this as unknown as Block);
  },
  set(this: Held, value: string): void {
    const held = this[HELD];
    if (typeof held !== 'string') held.forget(this as unknown as Block);
    this[HELD] = value;
  },
  enumerable: true,
  configurable: true,
};

const HIDDEN: PropertyDescriptor = { value: '', writable: true, enumerable: false, configurable: true };

/** A block without content yet: `fields` first, then `content` (enumerable, as a data property would be). */
export function withContent<T extends object>(fields: T): T & { content: string } {
  Object.defineProperty(fields, HELD, HIDDEN);
  Object.defineProperty(fields, 'content', CONTENT);
  return fields as T & { content: string };
}

/**
 * Lets `source` keep the block's content: the block drops its text. False for a block not
 * made by `withContent` (its content stays where it is).
 */
export function moveContent(block: Block, source: ContentSource): boolean {
  if (!Object.prototype.hasOwnProperty.call(block, HELD)) return false;
  (block as unknown as Held)[HELD] = source;
  return true;
}
