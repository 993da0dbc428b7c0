import { blockEndFacts, endStatusOf, type EndStatus } from '../../pipeline/end-status';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/** Test support: AG-UI events as a producer frames them, and the result of decoding them. */

/** One AG-UI event: a data-only SSE event whose JSON names its type. */
export function agUi(type: string, fields: Record<string, unknown> = {}): string {
  return `data: ${JSON.stringify({ type, ...fields })}\n\n`;
}

export const RUN = { threadId: 'thread-1', runId: 'run-1' } as const;

/** The events inside one run, RUN_STARTED and RUN_FINISHED around them. */
export function inRun(...events: string[]): string[] {
  return [agUi('RUN_STARTED', RUN), ...events, agUi('RUN_FINISHED', RUN)];
}

export function decodeAgUi(events: readonly string[]): DecodeResult {
  return decodeBytes(encodeUtf8(events.join('')));
}

export function rulesOf(result: Pick<DecodeResult, 'diagnostics'>): string[] {
  return result.diagnostics.map((d) => d.rule);
}

/** The session's end status, as the header says it. */
export function endOf(result: DecodeResult): EndStatus {
  return endStatusOf({
    stream: result.ends.at(-1)?.stream ?? null,
    ...blockEndFacts(result.blocks, result.ends.length - 1),
  });
}

/** The session's end status label (done, ended by error, truncated, awaiting tools…). */
export function endLabel(result: DecodeResult): string {
  return endOf(result).label;
}
