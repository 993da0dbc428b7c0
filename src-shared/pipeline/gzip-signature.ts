/**
 * Calls `onGzip` once when a stream's first two bytes, however chunked, are gzip's signature: a compressed
 * body served without Content-Encoding decodes as garbage, and this says why (stream.compressed-body).
 */
export function createGzipSignatureCheck(onGzip: () => void): { push(chunk: Uint8Array): void } {
  let seen = 0;
  let first = -1;
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length && seen < 2; i++, seen++) {
        if (seen === 0) first = chunk[i] as number;
        else if (first === 0x1f && chunk[i] === 0x8b) onGzip();
      }
    },
  };
}
