import * as s from '../contract/schema';
import { SessionSummary } from '../contract/payloads/sessions';
import type { DialectId } from '../dialects/registry';
import { INHERENT, type InherentId } from './inherent';
import { DIFF_EXPORT_FORMAT, DIFF_EXPORT_VERSION } from './export-format';
import { NORMALISATIONS, type NormalisationId } from './normalisations';
import type { SessionDiff } from './types';

/**
 * A diff as the Diff view exports it ("Export JSON"): the whole SessionDiff with the two
 * sessions it compared, and the reader that opens such a file again. The file is checked
 * field by field against the shape below (closed objects, the vocabularies' ids), so a damaged
 * or foreign file is refused with the path of what is wrong, and a view never meets a field it
 * does not know (docs/format-equivalence.md, "Exported diffs").
 */

/** What an export keeps of each session: enough to name it, not to reopen it. */
export type ExportedSession = Pick<SessionSummary, 'id' | 'title' | 'format' | 'source'>;

export interface DiffExport {
  exportedAt: string;
  sessions: { left: ExportedSession; right: ExportedSession };
  diff: SessionDiff;
}

export function writeDiffExport(
  diff: SessionDiff,
  left: ExportedSession,
  right: ExportedSession,
  exportedAt: number,
): string {
  const side = (session: ExportedSession): ExportedSession => ({
    id: session.id,
    title: session.title,
    format: session.format,
    source: session.source,
  });
  const file = {
    format: DIFF_EXPORT_FORMAT,
    version: DIFF_EXPORT_VERSION,
    exportedAt: new Date(exportedAt).toISOString(),
    sessions: { left: side(left), right: side(right) },
    ...diff,
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** Why a file is not an export this version reads; the message says what and where. */
export class DiffExportError extends Error {
  override readonly name = 'DiffExportError';
}

/** Whether `value` (a file's parsed JSON) claims to be a diff export, whatever its version. */
function isDiffExport(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === DIFF_EXPORT_FORMAT;
}

/** Reads an exported diff back; throws DiffExportError saying what is wrong. */
export function readDiffExport(text: string): DiffExport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new DiffExportError(`not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!isDiffExport(value))
    throw new DiffExportError(`not a diff export: its "format" is not ${JSON.stringify(DIFF_EXPORT_FORMAT)}`);
  const version = (value as { version?: unknown }).version;
  if (version !== DIFF_EXPORT_VERSION)
    throw new DiffExportError(
      `a diff export of version ${JSON.stringify(version)}; this version of the inspector reads version ${DIFF_EXPORT_VERSION}`,
    );
  let file: s.Infer<typeof EXPORT_FILE>;
  try {
    file = EXPORT_FILE.parse(value, 'file');
  } catch (error) {
    if (error instanceof s.ContractError) throw new DiffExportError(`damaged diff export: ${error.message}`);
    throw error;
  }
  const { format: _format, version: _version, exportedAt, sessions, ...diff } = file;
  return { exportedAt, sessions, diff };
}

const ids = <T extends string>(table: Record<T, unknown>): s.Schema<T> =>
  s.literal(...(Object.keys(table) as [T, ...T[]]));

const numberOrString: s.Schema<number | string> = {
  describe: 'number | string',
  parse(value, path = 'value') {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new s.ContractError(path, 'expected a number or a string');
  },
};

const SIDE_PROFILE = s.object({
  // Any name: a dialect a plug-in registered is named too, and the view only shows the names.
  dialects: s.array(s.string()) as s.Schema<DialectId[]>,
  generation: s.optional(s.literal('legacy', 'agent_base')),
  attributesAgents: s.boolean(),
  xmlItems: s.boolean(),
  xmlText: s.boolean(),
  agents: s.index(),
  unattributed: s.optional(s.boolean()),
  blocks: s.index(),
});

const ROW_SIDE = s.object({ blockId: s.index(), agent: s.string(), text: s.string() });

const ROW = s.object({
  status: s.literal('equal', 'changed', 'only-left', 'only-right'),
  pair: s.index(),
  kind: s.string(),
  name: s.optional(s.string()),
  toolId: s.optional(s.string()),
  left: s.optional(ROW_SIDE),
  right: s.optional(ROW_SIDE),
  reason: s.string(),
  normalisations: s.array(ids<NormalisationId>(NORMALISATIONS)),
  inherent: s.optional(ids<InherentId>(INHERENT)),
});

const TYPE_STATS = s.object({
  envelopes: s.index(),
  blocks: s.index(),
  chunkedBlocks: s.index(),
  maxEnvelopesPerBlock: s.index(),
  wireBytes: s.index(),
  payloadBytes: s.index(),
  escapes: s.nullable(s.index()),
  extras: s.array(s.string()),
});

const TOTALS = s.object({ envelopes: s.index(), frames: s.index(), wireBytes: s.index(), payloadBytes: s.index() });

/** The session's fields as the contract checks them in a session summary. */
const { id, title, format, source } = SessionSummary.shape;
const SESSION = s.object({ id, title, format, source });

const EXPORT_FILE = s.object({
  format: s.literal(DIFF_EXPORT_FORMAT),
  version: s.literal(DIFF_EXPORT_VERSION),
  exportedAt: s.string(),
  sessions: s.object({ left: SESSION, right: SESSION }),
  left: SIDE_PROFILE,
  right: SIDE_PROFILE,
  agents: s.array(
    s.object({
      left: s.optional(s.string()),
      right: s.optional(s.string()),
      by: s.literal('uuid', 'structure', 'order', 'unmatched'),
    }),
  ),
  flattened: s.boolean(),
  rows: s.array(ROW),
  counts: s.object({
    equal: s.index(),
    changed: s.index(),
    onlyLeft: s.index(),
    onlyRight: s.index(),
    inherent: s.index(),
    differences: s.index(),
    normalised: s.index(),
  }),
  envelopes: s.object({
    left: s.array(s.record(TYPE_STATS)),
    right: s.array(s.record(TYPE_STATS)),
    totals: s.object({ left: TOTALS, right: TOTALS }),
    differences: s.array(
      s.object({
        pair: s.index(),
        type: s.string(),
        aspect: s.literal('envelopes', 'chunking', 'wire-bytes', 'escaping', 'extras'),
        left: numberOrString,
        right: numberOrString,
        note: s.string(),
      }),
    ),
  }),
});
