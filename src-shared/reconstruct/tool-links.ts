import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticLocation } from '../diagnostics/types';
import type { Envelope } from '../envelope/types';
import { isToolCallKind } from '../envelope/kinds';
import { agentLabel, blockAt, describeBlock, envelopeAt } from './locations';
import { HELD_LINKED_CALLS, RecentMap, type Retention } from './retention';
import type { Block, PendingTool } from './types';
import { KIND } from '../envelope/vocabulary';

/**
 * Tool calls ↔ their results, across every leg of a session (a result may come in a
 * continuation), and the calls a paused run asked the client to answer.
 */
export interface ToolLinks {
  /** A block began: a tool call is remembered by its id, the first call with an id wins. */
  addCall(call: Block): void;
  /** A tool result began: link it and its call both ways, or say it has no call. */
  linkResult(result: Block, envelope: Envelope): void;
  /**
   * A preliminary result (the AI SDK's `preliminary: true` output, a provider event, not a
   * result block): say so when its id names no call of the session.
   */
  checkPreliminary(envelope: Envelope): void;
  /** A block was let go (`open` retention): a linked call is then remembered by id only. */
  letGo(block: Block): void;
  /** awaiting_frontend_tools asked the client to answer these calls. */
  awaited(tools: readonly PendingTool[]): void;
  /** End of the session: report the calls among `held` that got no result. */
  reportUnanswered(held: readonly Block[]): void;
}

export function createToolLinks(
  retention: Retention,
  report: (rule: RuleId, message: string, at: DiagnosticLocation) => void,
  changed: (block: Block) => void,
): ToolLinks {
  /** Tool and server tool calls by tool-use id; the first call with an id wins. */
  const callsById = new Map<string, Block>();
  /** In `open` retention: the ids of calls let go once linked, with their block ids. */
  const linkedCalls = retention === 'open' ? new RecentMap<string, number>(HELD_LINKED_CALLS) : undefined;
  /** Ids a result named that no call had, reported once each (a preliminary output and then its result name the same). */
  const unknownIds = new Set<string>();
  /** Tool-use ids some awaiting_frontend_tools asked the client to answer. */
  const pendingTools = new Set<string>();

  function addCall(call: Block): void {
    if (
      isToolCallKind(call.kind) &&
      call.toolId !== undefined &&
      !callsById.has(call.toolId) &&
      !linkedCalls?.has(call.toolId)
    )
      callsById.set(call.toolId, call);
  }

  function linkResult(result: Block, envelope: Envelope): void {
    const call = result.toolId !== undefined ? callsById.get(result.toolId) : undefined;
    const callId = call?.id ?? (result.toolId !== undefined ? linkedCalls?.get(result.toolId) : undefined);
    if (callId === undefined) {
      if (result.toolId !== undefined && !firstUnknown(result.toolId)) return;
      const why =
        result.toolId === undefined
          ? 'carries no id'
          : `has id ${result.toolId}, which no tool call of this session had`;
      report(
        'tool.result-without-call',
        `${result.kind} "${result.name ?? ''}" of ${agentLabel(result.agent)} ${why}; it is shown unlinked.`,
        envelopeAt(envelope, result),
      );
      return;
    }
    result.linkedBlock = callId;
    // The same id: the result keeps the call's string rather than a copy of its own, and the
    // call's name when the result names none (an answer in a later leg or run names only the id).
    if (call) {
      result.toolId = call.toolId;
      if (!result.name && call.name) result.name = call.name;
    }
    if (call && call.linkedBlock === undefined) {
      call.linkedBlock = result.id;
      changed(call);
    }
  }

  function checkPreliminary(envelope: Envelope): void {
    const event = envelope.unified;
    const id = event?.ids.tool_call_id;
    if (event?.family !== 'stream.tool_call_result' || event.phase !== 'preliminary' || id === undefined) return;
    if (callsById.has(id) || linkedCalls?.has(id) === true || !firstUnknown(id)) return;
    report(
      'tool.result-without-call',
      `The preliminary output in ${envelope.type} has id ${id}, which no tool call of this session had; a frontend has no tool part to show it in. Its later outputs are not reported again.`,
      envelopeAt(envelope),
    );
  }

  /** Whether `id` is reported for the first time as naming no call. */
  function firstUnknown(id: string): boolean {
    if (unknownIds.has(id)) return false;
    unknownIds.add(id);
    return true;
  }

  function letGo(block: Block): void {
    if (
      linkedCalls &&
      block.toolId !== undefined &&
      block.linkedBlock !== undefined &&
      callsById.get(block.toolId) === block
    ) {
      callsById.delete(block.toolId);
      linkedCalls.set(block.toolId, block.id);
    }
  }

  function reportUnanswered(held: readonly Block[]): void {
    for (const block of held) {
      if (!isToolCallKind(block.kind) || block.linkedBlock !== undefined) continue;
      // A call the run paused for is awaited, not missing: the server only continues a paused
      // run once it has the results (agent_base then streams no tool_result for them), and a
      // session that ends paused says so in its end status ("awaiting tools"). The app keeps
      // such a session open for the answer, so the CLI, which reads it whole, says the same.
      if (block.toolId !== undefined && pendingTools.has(block.toolId)) continue;
      report(
        'tool.call-without-result',
        `${describeBlock(block)} ("${block.name ?? ''}") got no result in this session${callContext(block)}.`,
        blockAt(block),
      );
    }
  }

  return {
    addCall,
    linkResult,
    checkPreliminary,
    letGo,
    awaited(tools) {
      for (const tool of tools) pendingTools.add(tool.toolUseId);
    },
    reportUnanswered,
  };
}

function callContext(call: Block): string {
  if (call.kind === KIND.server_tool_call)
    return ': server_tool_result is only streamed when the server streams tool results (never for sub-agents)';
  return '';
}
