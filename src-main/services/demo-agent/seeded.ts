import { createHash } from 'node:crypto';
import { seededRandom as seededNumbers } from '../../../src-shared/sse/rechunk';

/** A version-4-shaped UUID derived from `parts`: the same parts always give the same UUID. */
export function seededUuid(...parts: string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A deterministic pseudo-random base64 string (thinking signatures, encrypted indexes). */
export function seededBase64(length: number, ...parts: string[]): string {
  let out = '';
  for (let i = 0; out.length < length; i++)
    out += createHash('sha256')
      .update([...parts, String(i)].join('\u0000'))
      .digest('base64')
      .replace(/=+$/, '');
  return out.slice(0, length);
}

/** The shared mulberry32 (src-shared/sse/rechunk.ts) seeded from a string: reproducible jitter for realistic pacing. */
export function seededRandom(seed: string): () => number {
  return seededNumbers(createHash('sha256').update(seed).digest().readUInt32LE(0));
}
