/** `parts` joined into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Bytes held across pushes until they are taken as one array. Each piece is copied when held
 * (the caller may reuse its buffer) and the pieces are joined once when taken, so many small
 * pieces filling one large array cost linear time.
 */
export interface HeldBytes {
  /** Bytes held. */
  readonly length: number;
  hold(bytes: Uint8Array): void;
  /** The held bytes followed by `tail`, as one new array; nothing is held afterwards. */
  take(tail?: Uint8Array): Uint8Array;
  /** Drop the held bytes. */
  clear(): void;
}

export function createHeldBytes(): HeldBytes {
  let pieces: Uint8Array[] = [];
  let length = 0;
  return {
    get length() {
      return length;
    },
    hold(bytes) {
      pieces.push(bytes.slice());
      length += bytes.length;
    },
    take(tail) {
      if (tail !== undefined && tail.length > 0) pieces.push(tail);
      const joined = concatBytes(pieces);
      pieces = [];
      length = 0;
      return joined;
    },
    clear() {
      pieces = [];
      length = 0;
    },
  };
}
