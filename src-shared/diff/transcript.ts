import type { DiffRow, SessionDiff } from './types';

export interface TranscriptTexts {
  left: string;
  right: string;
}

/**
 * One text per side for a whole-transcript diff editor: every block in alignment order, under
 * a header naming its kind, tool and agent pair, in its normalised form — so the editor shows
 * only what the row table calls a difference. A block present on one side only appears on
 * that side alone. Headers carry no block ids or uuids, which differ between runs; in a
 * flattened diff (no agent attribution) they carry no agent either.
 */
export function diffTranscript(diff: SessionDiff): TranscriptTexts {
  const left: string[] = [];
  const right: string[] = [];
  for (const row of diff.rows) {
    const header = rowHeader(row, diff.flattened);
    if (row.left) left.push(section(header, row.left.text));
    if (row.right) right.push(section(header, row.right.text));
  }
  return { left: left.join('\n'), right: right.join('\n') };
}

function rowHeader(row: DiffRow, flattened: boolean): string {
  const parts = [`── ${row.kind}`];
  if (row.name !== undefined) parts.push(row.name);
  if (row.toolId !== undefined) parts.push(row.toolId);
  if (!flattened) parts.push(`(agent ${row.pair + 1})`);
  return parts.join(' ');
}

function section(header: string, text: string): string {
  return text === '' ? `${header}\n` : `${header}\n${text}\n`;
}
