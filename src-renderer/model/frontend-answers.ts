import type { BlockSummary, LegInfo } from '../../src-shared/contract';
import { KIND } from '../../src-shared/envelope/vocabulary';

/** Where a paused-for call's answer went, and whether it was an approval rather than a result. */
export interface FrontendAnswer {
  /** The leg whose request carried it; null while the run still awaits it. */
  readonly leg: number | null;
  readonly approval: boolean;
}

/**
 * Where the answer to each client-side tool call a run paused for went: the leg whose request
 * carried it (the first continuation after the pause), or null while the run still awaits it.
 * A call that waited for its approval (PendingTool.approvalId) had an approval sent, not a result.
 * The stream itself does not repeat such a result (agent_base streams no tool_result for it;
 * an AI SDK or AG-UI continuation starts a new message), so the call's block has no linked
 * result block, and "no result yet" would read as if nobody had answered.
 */
export function frontendAnswers(
  blocks: readonly (BlockSummary | undefined)[],
  legs: readonly LegInfo[],
): ReadonlyMap<string, FrontendAnswer> {
  const answers = new Map<string, FrontendAnswer>();
  for (const block of blocks) {
    if (block?.kind !== KIND.awaiting_frontend_tools || !block.pendingTools) continue;
    const continuation = legs.find((leg) => leg.kind === 'tool-results' && leg.leg > block.leg);
    for (const tool of block.pendingTools)
      answers.set(tool.toolUseId, { leg: continuation?.leg ?? null, approval: tool.approvalId !== undefined });
  }
  return answers;
}
