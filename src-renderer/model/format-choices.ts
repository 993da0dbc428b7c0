import type { FormatChoice, SessionSummary } from '../../src-shared/contract';
import { DIALECTS } from '../../src-shared/dialects/registry';

/** What "Decode as" offers, in the connect form and for an open file: detection, then every dialect by its label. */
export const FORMAT_CHOICES: readonly { value: FormatChoice; label: string }[] = [
  { value: 'auto', label: 'Detect' },
  ...DIALECTS.map((d) => ({ value: d.id, label: d.label })),
];

/**
 * Whether a session's bytes can be decoded again as another dialect: a file with its HAR
 * entries chosen, or a live run that ended and waits for no tool answer (what it received,
 * saved and opened again). A replay plays another session's bytes: that one is decoded again.
 */
export function decodesAgain(
  summary: Pick<SessionSummary, 'source' | 'state' | 'awaitingTools' | 'choosingHarEntries'>,
): boolean {
  if (summary.source.kind === 'file') return !summary.choosingHarEntries;
  if (summary.source.kind === 'replay') return false;
  return summary.state !== 'connecting' && summary.state !== 'streaming' && !summary.awaitingTools;
}
