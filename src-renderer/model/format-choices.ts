import type { FormatChoice, SessionSummary } from '../../src-shared/contract';
import { DIALECTS } from '../../src-shared/dialects/registry';

/** What "Decode as" offers, in the connect form and for an open file: detection, then every dialect by its label. */
export const FORMAT_CHOICES: readonly { value: FormatChoice; label: string }[] = [
  { value: 'auto', label: 'Detect' },
  ...DIALECTS.map((d) => ({ value: d.id, label: d.label })),
];

/**
 * Whether a session can be decoded again as another dialect: a file (a live run is decoded as
 * its connect form says, a replay as its session was) with its HAR entries chosen.
 */
export function decodesAgain(summary: Pick<SessionSummary, 'source' | 'choosingHarEntries'>): boolean {
  return summary.source.kind === 'file' && !summary.choosingHarEntries;
}
