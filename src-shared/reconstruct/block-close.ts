import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticLocation } from '../diagnostics/types';
import { hasJsonPayload } from '../envelope/kinds';
import type { Envelope } from '../envelope/types';
import { KIND } from '../envelope/vocabulary';
import { parseJsonPayload } from '../json/values';
import type { AgentState, Agents, Interruption, OpenBlock } from './agents';
import { flattenContent } from './block-content';
import { agentLabel, describeBlock, envelopeAt } from './locations';
import { parseOnRead } from './parse-on-read';
import { readPendingTools } from './payloads';
import type { ToolLinks } from './tool-links';
import type { Block } from './types';
import { isJsonObject } from '../json/values';

/** What closing needs of the reconstructor. */
export interface CloseContext {
  agents: Agents;
  toolLinks: ToolLinks;
  report: (rule: RuleId, message: string, at: DiagnosticLocation) => void;
  /** A block changed: the reconstructor tells its consumer (and may let a settled block go). */
  changed: (block: Block) => void;
  /**
   * Closed blocks' text is made flat: where they are kept (`all` retention) and their consumer
   * keeps their text (ReconstructorOptions.releasesClosedText); in `open` they are let go.
   */
  flattensClosedText: boolean;
}

/**
 * How a block stops taking content: its final envelope closes it (`close`), a block of another
 * type that interrupted it closes it unfinalised, or a replay of it abandons it. Where closed
 * blocks and their text are kept, each leaves its text one flat string (flattenContent).
 */
export function createBlockClose({ agents, toolLinks, report, changed, flattensClosedText }: CloseContext) {
  const keepFlat = flattensClosedText ? flattenContent : (): void => undefined;

  /** The block is complete and no longer its agent's open block of its type. */
  function complete(state: AgentState, block: Block): void {
    block.status = 'complete';
    keepFlat(block);
    state.open.delete(block.kind);
    state.lastCompleted.set(block.kind, block);
  }

  /**
   * A block's final envelope: the block completes, and a JSON payload (tool input, meta_init,
   * awaited tools…) is read once, whole: meta_init fills in its agent, awaiting_frontend_tools
   * says which calls the run waits for. `payload`: the closing envelope's delta as its dialect
   * parsed it, if it did.
   */
  function close(state: AgentState, block: Block, envelope: Envelope, payload: unknown): void {
    complete(state, block);
    // A payload cut at the cap cannot parse; block.content-capped said why.
    if (!hasJsonPayload(block.kind) || block.omittedChars !== undefined) return;
    // A payload of this one envelope is its delta, which the dialect already parsed.
    let value = block.envelopes.length === 1 ? payload : undefined;
    if (value === undefined) {
      const parsed = parseJsonPayload(block.content);
      if (!parsed.ok) {
        block.parseError = parsed.error;
        report(
          'envelope.payload-json',
          `The ${block.kind} payload of ${agentLabel(block.agent)}, reassembled from ${block.envelopes.length} envelope(s) (${block.content.length} characters), is not valid JSON: ${parsed.error}.`,
          envelopeAt(envelope, block),
        );
        return;
      }
      value = parsed.value;
    }
    parseOnRead(block);
    if (block.kind === KIND.awaiting_frontend_tools) readAwaiting(block, value, envelope);
    else if (block.kind === KIND.meta_init) agents.applyMetaInit(state, block, value);
  }

  function readAwaiting(block: Block, payload: unknown, envelope: Envelope): void {
    const tools = readPendingTools(payload);
    if (!tools.ok) {
      block.parseError = tools.error;
      report(
        'envelope.payload-json',
        `The awaiting_frontend_tools payload of ${agentLabel(block.agent)} parses but has the wrong shape: ${tools.error}.`,
        envelopeAt(envelope, block),
      );
      return;
    }
    block.pendingTools = tools.value;
    if (isJsonObject(payload) && payload['pause_turn'] === true) block.pausedTurn = true;
    toolLinks.awaited(tools.value);
  }

  /**
   * A delta for a streamed block that a block of another type interrupted: the block never
   * got its final envelope, and appending would merge two blocks' text. It is closed where the
   * other block began, and said so; the delta starts a block of its own.
   */
  function closeUnfinalised(state: AgentState, open: OpenBlock, interrupted: Interruption): void {
    const block = open.block;
    report(
      'block.not-finalised',
      `${describeBlock(block)} got no final envelope before a ${interrupted.type} block began at envelope ${interrupted.envelope}; it is closed there (${block.content.length} characters), and the ${block.kind} that follows is a block of its own, not merged into it.`,
      interrupted.at,
    );
    complete(state, block);
    changed(block);
  }

  /** A replay of `old` began: `old` is kept as the abandoned attempt, `replay` takes its place. */
  function abandon(state: AgentState, old: Block, replay: Block): void {
    old.status = 'abandoned';
    keepFlat(old);
    old.replacedBy = replay.id;
    replay.replaces = old.id;
    if (state.lastText === old) state.lastText = replay;
    changed(old);
  }

  return { close, closeUnfinalised, abandon };
}
