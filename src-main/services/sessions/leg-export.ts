import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import type { LegOutcome } from '../../../src-shared/recording/types';
import { recordedOutcome } from './recorder-port';
import type { LegState } from './store/leg-state';

/** What the exports that keep a leg whole (HAR, the envelope export's head lines) write of it besides its envelopes. */

/** How a leg ended, in the recording format's words (a leg still open is written as stopped there). */
export function legOutcome(leg: LegState): LegOutcome {
  return recordedOutcome(
    leg.end ?? { reason: 'stopped', message: 'The leg was still open when the session was saved' },
  );
}

/**
 * Whether the session decoded the leg's body as a stream: a response refused as no stream (an
 * error page, a one-off answer, its body empty or not) was shown, not decoded.
 */
export function legWasDecoded(leg: LegState): boolean {
  const refused = leg.failure?.kind === 'http-status' || leg.failure?.kind === 'content-type';
  return leg.rejected.count === 0 && !refused;
}

/** The leg's body as received (its stream, or the response shown instead), with its first and last chunk's times. */
export function legBody(leg: LegState): { bytes: Uint8Array; firstByteAt?: number; lastByteAt?: number } {
  const body = legWasDecoded(leg) ? leg.raw : leg.rejected;
  const chunks: Uint8Array[] = [];
  for (let i = 0; i < body.count; i++) {
    const chunk = body.chunk(i);
    if (chunk) chunks.push(chunk.bytes);
  }
  const first = body.count > 0 ? body.chunk(0)?.receivedAt : undefined;
  const last = body.count > 0 ? body.chunk(body.count - 1)?.receivedAt : undefined;
  return {
    bytes: concatBytes(chunks),
    ...(first !== undefined ? { firstByteAt: first } : {}),
    ...(last !== undefined ? { lastByteAt: last } : {}),
  };
}
