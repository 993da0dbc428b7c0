import type { SessionSummary } from '../../src-shared/contract';
import { DIALECT_REGISTRY, dialectLabel } from '../../src-shared/dialects/registry';
import { decodesAgain } from './format-choices';
import { FAILED_BEFORE_ENVELOPES } from './no-findings';

/**
 * What the blocks view says while it shows no block: that none arrived yet, or that none ever
 * will, and why. A stream no dialect recognised (the fallback claims no block by design) says
 * so and where to choose its format, instead of sending the user to findings that are not there.
 */
export function noBlocksMessage(
  summary: Pick<
    SessionSummary,
    'format' | 'detection' | 'source' | 'state' | 'awaitingTools' | 'choosingHarEntries' | 'failure' | 'envelopes'
  >,
  loaded: boolean,
  live: boolean,
): { title: string; text: string | null } {
  if (!loaded) return { title: 'Loading blocks…', text: null };
  if (live) return { title: 'Waiting for the first block…', text: 'Blocks appear here as the agent streams them.' };
  // Not "the Diagnostics tab says why": a session that got no stream has no finding to say it.
  if (summary.failure !== undefined && summary.envelopes === 0) {
    return { title: 'No blocks in this session', text: FAILED_BEFORE_ENVELOPES };
  }
  const fallback = DIALECT_REGISTRY.fallback;
  if (summary.format === fallback.id) {
    const label = dialectLabel(fallback.id, summary.detection);
    const where = decodesAgain(summary)
      ? 'in "Decode as…" above'
      : 'in the connect form\'s "Decode as", and run it again';
    return {
      title: `No blocks: decoded as ${label}`,
      text:
        summary.detection?.by === 'chosen'
          ? `As ${label}, each event is in the Timeline as it came and no block is claimed from them. Another format can be chosen ${where}.`
          : `No dialect recognised this stream: its events are in the Timeline as they came, and no block is claimed from them. If you know its format, choose it ${where}.`,
    };
  }
  return {
    title: 'No blocks in this session',
    text: 'Nothing could be reconstructed: the Diagnostics tab says why (undetected format, no envelopes, …).',
  };
}
