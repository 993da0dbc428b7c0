/**
 * The replay server's re-chunking option: pieces of exactly N bytes (the last piece of a leg
 * may be shorter), down to one byte per write, cut by the shared rechunker
 * (src-shared/sse/rechunk.ts), so they are the pieces `--rechunk N` of the CLI gives.
 */
export type RechunkOption = number | 'byte';

export function rechunkSize(option: RechunkOption): number {
  return option === 'byte' ? 1 : option;
}

/** Checks a re-chunking option given by a user; returns an error message or null. */
export function rechunkError(option: RechunkOption): string | null {
  if (option === 'byte') return null;
  return Number.isInteger(option) && option >= 1
    ? null
    : `rechunk must be a whole number of bytes (1 or more) or byte (got ${String(option)})`;
}
