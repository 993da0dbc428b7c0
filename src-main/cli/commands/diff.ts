import { agentsPhrase } from '../../../src-shared/agents/names';
import { diffSessions } from '../../../src-shared/diff/diff';
import { INHERENT } from '../../../src-shared/diff/inherent';
import { NORMALISATIONS } from '../../../src-shared/diff/normalisations';
import type { AgentPair, DiffRow, Explanation, SessionDiff, SideProfile } from '../../../src-shared/diff/types';
import { parse, parseFormat } from '../args';
import { decodeFile } from '../decode-file';
import { agentLabel } from '../agent-label';
import { printJson, UsageError, type Command } from '../io';
import { buildReport } from '../report';
import type { EndStatus } from '../../../src-shared/pipeline/end-status';

/**
 * Block-level diff of two streams (typically one run in two formats). Exit 1 when a
 * difference remains after the documented normalisations (with --strict, also when an
 * inherent format difference remains), 0 when the two are equivalent.
 */
export const diff: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    strict: { type: 'boolean' },
  });
  const [leftFile, rightFile] = positionals;
  if (positionals.length !== 2 || !leftFile || !rightFile)
    throw new UsageError('expected LEFT and RIGHT files (one of them may be - for stdin)');
  if (leftFile === '-' && rightFile === '-') throw new UsageError('only one side can be read from stdin');
  const format = parseFormat(values.format, io.dialects);
  const left = await decodeFile(leftFile, format, io);
  const right = await decodeFile(rightFile, format, io);
  const result = diffSessions(left, right, io.dialects ? { dialects: io.dialects } : {});
  // The blocks are compared; how each stream ended is said beside them, as inspect says it, so
  // that "Equivalent." is never read as "both complete".
  const ends = { left: buildReport(left).status, right: buildReport(right).status };
  const failing = result.counts.differences + (values.strict ? result.counts.inherent : 0);
  if (values.json) printJson(io, { files: { left: leftFile, right: rightFile }, ends, ...result });
  else io.stdout(formatDiff(result, leftFile, rightFile, failing, ends));
  return failing > 0 ? 1 : 0;
};

const short = (uuid: string | undefined): string => (uuid === undefined ? '-' : agentLabel(uuid));

const MARK: Record<DiffRow['status'], string> = { equal: '=', changed: '~', 'only-left': '<', 'only-right': '>' };

function describeSide(label: string, file: string, profile: SideProfile, end: EndStatus): string {
  const dialects = profile.dialects.join('+') || 'undetected';
  const generation = profile.generation !== undefined ? ` · ${profile.generation}` : '';
  return `${label}  ${file}: ${dialects}${generation} · ${profile.blocks} blocks · ${agentsPhrase(profile.agents, profile.unattributed === true)} · ${end.label}`;
}

function describePair(pair: AgentPair, index: number): string {
  return `  ${index + 1}. ${short(pair.left)} ↔ ${short(pair.right)}  (${pair.by})`;
}

function formatRow(row: DiffRow): string {
  const id = (side: DiffRow['left']): string => (side ? `#${side.blockId}` : '·').padEnd(6);
  const label = [row.name, row.toolId].filter(Boolean).join(' ');
  const kind = `${row.kind}${label ? ` [${label}]` : ''}`;
  return `  ${MARK[row.status]} ${id(row.left)}${id(row.right)} ${String(row.pair + 1).padStart(2)}  ${kind.padEnd(48)} ${row.reason}`;
}

/** Each explanation the rows used, once, under `title` (nothing when none was used). */
function explanations<Id extends string>(
  title: string,
  used: readonly Id[],
  table: Readonly<Record<Id, Explanation>>,
): string[] {
  const ids = [...new Set(used)];
  return ids.length === 0 ? [] : [title, ...ids.map((id) => `  ${table[id].label}: ${table[id].description}`), ''];
}

export function formatDiff(
  result: SessionDiff,
  leftFile: string,
  rightFile: string,
  failing: number,
  ends: { left: EndStatus; right: EndStatus },
): string {
  const { counts } = result;
  const out: string[] = [
    describeSide('LEFT ', leftFile, result.left, ends.left),
    describeSide('RIGHT', rightFile, result.right, ends.right),
    '',
  ];
  out.push(result.flattened ? 'Agents (blocks aligned across agents: a side cannot attribute sub-agents):' : 'Agents:');
  out.push(...result.agents.map(describePair), '');
  out.push(
    `Blocks: ${counts.equal} equal (${counts.normalised} after normalising), ${counts.changed} changed, ${counts.onlyLeft} only left, ${counts.onlyRight} only right` +
      ` — ${counts.inherent} inherent, ${counts.differences} difference${counts.differences === 1 ? '' : 's'}`,
  );
  out.push('  st left  right  ag  kind', ...result.rows.map(formatRow), '');

  out.push(
    ...explanations(
      'Normalisations applied:',
      result.rows.flatMap((r) => r.normalisations),
      NORMALISATIONS,
    ),
  );
  out.push(
    ...explanations(
      'Inherent differences:',
      result.rows.flatMap((r) => (r.inherent ? [r.inherent] : [])),
      INHERENT,
    ),
  );

  const wire = result.envelopes.differences;
  out.push(wire.length ? 'Envelope-level differences (blocks unaffected):' : 'Envelope-level differences: none');
  for (const d of wire)
    out.push(
      `  ${String(d.pair + 1).padStart(2)}  ${d.type.padEnd(26)} ${d.aspect.padEnd(10)} ${String(d.left).padStart(12)} | ${String(d.right).padEnd(12)} ${d.note}`,
    );
  const { left, right } = result.envelopes.totals;
  out.push(
    `  totals: ${left.envelopes} | ${right.envelopes} envelopes, ${left.frames} | ${right.frames} events, ${left.wireBytes} | ${right.wireBytes} bytes on the wire, ${left.payloadBytes} | ${right.payloadBytes} payload bytes`,
    '',
  );
  const verdict = failing > 0 ? `${failing} difference${failing === 1 ? '' : 's'}` : 'Equivalent';
  out.push(
    ends.left.label === ends.right.label
      ? `${verdict}.`
      : `${verdict} in their blocks; the streams end differently: ${ends.left.label} | ${ends.right.label}.`,
    '',
  );
  return out.join('\n');
}
