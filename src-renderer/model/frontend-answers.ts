import type { BlockSummary, LegInfo } from '../../src-shared/contract';
import { KIND } from '../../src-shared/envelope/vocabulary';

/**
 * Where the result of each client-side tool call a run paused for went: the leg whose request
 * carried it (the first continuation after the pause), or null while the run still awaits it.
 * The stream itself does not repeat such a result (agent_base streams no tool_result for it;
 * an AI SDK or AG-UI continuation starts a new message), so the call's block has no linked
 * result block, and "no result yet" would read as if nobody had answered.
 */
export function frontendAnswers(
  blocks: readonly (BlockSummary | undefined)[],
  legs: readonly LegInfo[],
): ReadonlyMap<string, number | null> {
  const answers = new Map<string, number | null>();
  for (const block of blocks) {
    if (block?.kind !== KIND.awaiting_frontend_tools || !block.pendingTools) continue;
    const continuation = legs.find((leg) => leg.kind === 'tool-results' && leg.leg > block.leg);
    for (const tool of block.pendingTools) answers.set(tool.toolUseId, continuation?.leg ?? null);
  }
  return answers;
}
