import type { ManifestEntry } from '../../src-main/testing/fixtures';

/**
 * What opening an upstream fixture must show, derived from what its MANIFEST.json entry and
 * the fixtures' README say about the file — never from the decoder's own output, so the UI
 * is checked against an independent description of the stream.
 */
export interface FileExpectations {
  /** Block kinds that must appear at least once. */
  readonly blockKinds: readonly string[];
  /** Agents the blocks view must count (JSON files name them; null: not stated). */
  readonly agents: number | null;
  /** Rules that must be listed, with their exact finding count or a minimum. */
  readonly rules: ReadonlyMap<string, { exactly?: number; atLeast?: number }>;
  /** Rules that must not be listed. */
  readonly absentRules: readonly string[];
  /** Over-budget envelopes (either over-budget rule), for JSON-envelope files; null: no claim. */
  readonly overBudgetEnvelopes: number | null;
  /** The `error` field of each error frame, shown in an error block. */
  readonly errorFrames: readonly string[];
  /** Citations shown: exactly (JSON files count them) or at least one; null: none stated. */
  readonly citations: { exactly?: number; atLeast?: number } | null;
  /** The stream replays a block after a retried API call: one block is abandoned. */
  readonly restartedBlock: boolean;
  /** The run ends paused on `awaiting_frontend_tools` (README: "pauses … then [DONE]"). */
  readonly awaitsTools: boolean;
  /** The end status badge: never "done" for a stream that errored, was cut or left a block open. */
  readonly endLabel: 'done' | 'ended by error' | 'truncated' | 'awaiting tools';
}

/** Envelope types that attach to another block instead of forming one. */
const ATTACHMENTS = new Set(['citation', 'tool_result_image']);

const OVERSIZE = 'sse.oversize-line';
export const OVER_BUDGET_RULES = ['envelope.over-budget', 'envelope.over-budget-after-escaping'] as const;

export function expectationsFor(name: string, entry: ManifestEntry): FileExpectations {
  const rules = new Map<string, { exactly?: number; atLeast?: number }>();
  const absentRules: string[] = [];
  const json = entry.kind === 'json';

  // README: a raw newline inside a payload makes lines SSE ignores ("parts of it are lost").
  if (entry.ignored_non_data_lines > 0) rules.set('sse.ignored-line', { exactly: entry.ignored_non_data_lines });
  else absentRules.push('sse.ignored-line');

  // README: the router's error frame {"error","message","traceback"}.
  if (entry.error_frames.length > 0) rules.set('stream.error-frame', { exactly: entry.error_frames.length });
  else absentRules.push('stream.error-frame');

  // MANIFEST counts JSON data: lines over the 2048-byte budget; other lines (XML items) may add more.
  if (entry.json_lines_over_2048 > 0)
    rules.set(OVERSIZE, json ? { exactly: entry.json_lines_over_2048 } : { atLeast: entry.json_lines_over_2048 });
  else if (json) absentRules.push(OVERSIZE);

  // Of those lines, the ones that are envelopes (an error frame has no type) break the chunk budget.
  let overBudgetEnvelopes: number | null = null;
  if (json) {
    overBudgetEnvelopes = Object.entries(entry.over_2048_by_type)
      .filter(([type]) => type !== 'null')
      .reduce((sum, [, n]) => sum + n, 0);
  }

  // MANIFEST: blocks still open when the stream ended.
  const unclosed = Object.entries(entry.unclosed_blocks_at_end ?? {})
    .filter(([type]) => !ATTACHMENTS.has(type))
    .reduce((sum, [, n]) => sum + n, 0);
  if (unclosed > 0) rules.set('block.unterminated', { exactly: unclosed });
  else if (json) absentRules.push('block.unterminated');

  // README: "a retried API call: the partial text block is never closed and the whole block streams again".
  const restartedBlock = name.startsWith('retry_midstream.');
  if (restartedBlock) rules.set('block.restarted', { atLeast: 1 });

  // README: "char, page and web-search citations"; JSON files count the citation envelopes.
  let citations: FileExpectations['citations'] = null;
  if (name.startsWith('probe_citations.'))
    citations = entry.envelope_types?.['citation'] ? { exactly: entry.envelope_types['citation'] } : { atLeast: 1 };

  const kinds = blockKinds(entry);
  const awaitsTools = kinds.includes('awaiting_frontend_tools');
  // README: "multi_agent: … their envelopes interleave"; XML items carry no agent id, so
  // interleaved sub-agents' blocks cross and one is opened again before it closed.
  const crossingBlocks = name.startsWith('multi_agent.') && entry.kind === 'xml';
  let endLabel: FileExpectations['endLabel'] = 'done';
  if (entry.error_frames.length > 0) endLabel = 'ended by error';
  else if (entry.trailing_incomplete || !entry.done_is_last || unclosed > 0 || restartedBlock || crossingBlocks)
    endLabel = 'truncated';
  else if (awaitsTools) endLabel = 'awaiting tools';
  return {
    blockKinds: kinds,
    agents: entry.agents ? Object.keys(entry.agents).length : null,
    rules,
    absentRules,
    overBudgetEnvelopes,
    errorFrames: entry.error_frames.map((frame) => frame.error),
    citations,
    restartedBlock,
    awaitsTools,
    endLabel,
  };
}

/** Block kinds named by the envelope types (JSON) or the item tags (XML items, also in raw streams). */
function blockKinds(entry: ManifestEntry): string[] {
  if (entry.envelope_types) return Object.keys(entry.envelope_types).filter((type) => !ATTACHMENTS.has(type));
  const kinds = new Set<string>();
  for (const tag of Object.keys(entry.xml_item_tags ?? {})) {
    if (tag.startsWith('/') || tag === 'citations') continue;
    kinds.add(tag.replace(/^content-block-/, ''));
  }
  return [...kinds];
}
