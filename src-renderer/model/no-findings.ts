import type { SessionSummary } from '../../src-shared/contract';

/** Said where a view is empty because the source failed before anything was decoded. */
export const FAILED_BEFORE_ENVELOPES =
  'The source failed before any envelope could be decoded: the message above says why.';

/**
 * What the diagnostics view says under "No findings". That the stream checks out is said only
 * of a session that got one: a failed connection has no framing or dialect to vouch for, and
 * the Blocks view sends the user here to learn why it is empty.
 */
export function noFindingsText(summary: Pick<SessionSummary, 'failure' | 'envelopes'>): string {
  if (summary.failure !== undefined) {
    return summary.envelopes === 0
      ? `No stream came to check. ${FAILED_BEFORE_ENVELOPES}`
      : 'Nothing wrong in what arrived before the source failed: the message above says why it failed.';
  }
  return 'The decoder found nothing wrong with this stream: framing, dialect and reconstruction all check out.';
}
