import type { Block } from './types';

/**
 * Where a finished block's content (or its plain text segment's) can live instead of in the
 * object: a session store keeps it on disk and rebuilds it when read
 * (src-main/services/sessions/store/block-contents.ts).
 */
export interface ContentSource<T extends object = Block> {
  read(owner: T): string;
  /** The owner's content was assigned again: it is held in the owner from now on. */
  forget(owner: T): void;
}

/** The hidden own field behind `content`: the text, or the source that rebuilds it. */
const HELD = 'heldContent';

type Held = { [HELD]: string | ContentSource<object> };

/**
 * One getter and setter shared by every block: `content` reads the text the block holds or
 * asks its source. Added to each new block by the same transitions, so blocks keep one fast
 * shape; reconfiguring a data property into an accessor later would turn each block into a
 * dictionary (about three times its size).
 */
const CONTENT: PropertyDescriptor = {
  get(this: Held): string {
    const held = this[HELD];
    return typeof held === 'string' ? held : held.read(this);
  },
  set(this: Held, value: string): void {
    const held = this[HELD];
    if (typeof held !== 'string') held.forget(this);
    this[HELD] = value;
  },
  enumerable: true,
  configurable: true,
};

const HIDDEN: PropertyDescriptor = { value: '', writable: true, enumerable: false, configurable: true };

/** A block or segment without content yet: `fields` first, then `content` (enumerable, as a data property would be). */
export function withContent<T extends object>(fields: T): T & { content: string } {
  Object.defineProperty(fields, HELD, HIDDEN);
  Object.defineProperty(fields, 'content', CONTENT);
  return fields as T & { content: string };
}

/**
 * `owner.content += text`, for the one append every delta makes: the held string is read and
 * written directly, not through the getter and the setter, which a property access that sees
 * every shape of block calls the slow way (they were 5 % of decoding a delta-heavy XML stream).
 * The content stops at `limit` characters (never between the halves of a surrogate pair):
 * returns how many characters of `text` were left out (0 while it fits).
 */
export function appendContent(owner: { content: string }, text: string, limit = Infinity): number {
  const held = (owner as unknown as Partial<Held>)[HELD];
  const content = typeof held === 'string' ? held : owner.content;
  let room = limit - content.length;
  if (text.length <= room) {
    if (typeof held === 'string') (owner as unknown as Held)[HELD] = held + text;
    else owner.content += text;
    return 0;
  }
  if (room <= 0) return text.length;
  const high = text.charCodeAt(room - 1);
  if (high >= 0xd800 && high <= 0xdbff) room--;
  owner.content = content + text.slice(0, room);
  return text.length - room;
}

/**
 * `owner.content`, read without the accessor when the owner holds its text (the inline stage
 * reads a block's content on every delta, from a site that sees every shape of block).
 */
export function readContent(owner: { content: string }): string {
  const held = (owner as unknown as Partial<Held>)[HELD];
  return typeof held === 'string' ? held : owner.content;
}

/**
 * Makes a finished owner's content one flat string. Appended delta by delta, it is a rope in
 * V8: a node per append over the delta strings, more than twice the memory of the text,
 * and as many small objects as deltas for the collector to move while the block is kept.
 * Reading a character of a rope flattens it (V8 copies the text once and makes the rope a
 * wrapper of the copy, which the collector then drops); other engines just read a character.
 */
export function flattenContent(owner: { content: string }): void {
  const held = (owner as unknown as Partial<Held>)[HELD];
  if (typeof held === 'string' && held.length > 0) held.charCodeAt(0);
}

/** `owner.content = text`, written without the setter when the owner holds its text (as appendContent). */
export function assignContent(owner: { content: string }, text: string): void {
  if (typeof (owner as unknown as Partial<Held>)[HELD] === 'string') (owner as unknown as Held)[HELD] = text;
  else owner.content = text;
}

/**
 * Lets `source` keep the owner's content: the owner drops its text. False for an owner not
 * made by `withContent` (its content stays where it is).
 */
export function moveContent<T extends { content: string }>(owner: T, source: ContentSource<T>): boolean {
  if (!Object.prototype.hasOwnProperty.call(owner, HELD)) return false;
  (owner as unknown as Held)[HELD] = source;
  return true;
}

/** Whether the owner holds its content itself (false once it moved to a source). */
export function holdsContent(owner: object): boolean {
  return typeof (owner as Partial<Held>)[HELD] !== 'object';
}
