/**
 * Re-cutting a byte stream into pieces of exactly `size` bytes (the last piece of a leg may
 * be shorter), regardless of where the recorded chunks ended: a frontend under test sees
 * events split at new places, down to one byte per write. Bytes are held only until a
 * piece is full, so the timing of a piece is that of the chunk that completed it.
 */
export interface Rechunker {
  push(bytes: Uint8Array): Uint8Array[];
  /** The held remainder, if any. */
  end(): Uint8Array[];
}

export type RechunkOption = number | 'byte';

export function rechunkSize(option: RechunkOption): number {
  return option === 'byte' ? 1 : option;
}

/** Checks a re-chunking option given by a user; returns an error message or null. */
export function rechunkError(option: RechunkOption): string | null {
  if (option === 'byte') return null;
  return Number.isInteger(option) && option >= 1 ? null : `rechunk must be a whole number of bytes (1 or more) or byte (got ${String(option)})`;
}

export function createRechunker(size: number): Rechunker {
  // Held bytes are kept as a list of copies and joined once a piece is full: linear time
  // even when many tiny chunks fill one large piece.
  let held: Uint8Array[] = [];
  let heldLength = 0;

  const takeHeld = (tail: Uint8Array): Uint8Array => {
    const piece = new Uint8Array(heldLength + tail.length);
    let at = 0;
    for (const part of held) {
      piece.set(part, at);
      at += part.length;
    }
    piece.set(tail, at);
    held = [];
    heldLength = 0;
    return piece;
  };

  return {
    push(bytes) {
      const pieces: Uint8Array[] = [];
      let from = 0;
      if (heldLength > 0) {
        const need = size - heldLength;
        if (bytes.length < need) {
          held.push(bytes.slice());
          heldLength += bytes.length;
          return pieces;
        }
        pieces.push(takeHeld(bytes.subarray(0, need)));
        from = need;
      }
      for (; from + size <= bytes.length; from += size) pieces.push(bytes.subarray(from, from + size));
      if (from < bytes.length) {
        held.push(bytes.slice(from));
        heldLength = bytes.length - from;
      }
      return pieces;
    },
    end() {
      return heldLength > 0 ? [takeHeld(new Uint8Array(0))] : [];
    },
  };
}
