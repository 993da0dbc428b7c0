import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticLocation } from '../diagnostics/types';
import type { Envelope } from '../envelope/types';
import { KIND } from '../envelope/vocabulary';
import { openBlockOf, type AgentState } from './agents';
import { agentLabel, envelopeAt, stringExtra } from './locations';
import { addCitation, addEnvelope, addImage } from './new-block';
import { readCitation } from './payloads';
import type { Block } from './types';

/** What attaching needs of the reconstructor. */
export interface AttachContext {
  newBlock: (envelope: Envelope, kind: string, agent?: string) => Block;
  changed: (block: Block) => void;
  report: (rule: RuleId, message: string, at: DiagnosticLocation) => void;
}

/**
 * Envelopes that attach to another block instead of opening one: a citation to the agent's
 * latest text block, a tool_result_image to the open tool result it names (or, with no id, to
 * the open text block). One with nothing to attach to is kept as a block of its own and said so.
 */
export function createAttachments({ newBlock, changed, report }: AttachContext) {
  function attachCitation(state: AgentState, envelope: Envelope): void {
    const { citation, problem } = readCitation(envelope);
    const target = state.lastText;
    if (problem)
      report(
        'envelope.payload-json',
        `Citation of ${agentLabel(envelope.agent)}: ${problem}.`,
        envelopeAt(envelope, target),
      );
    if (target) {
      addCitation(target, citation);
      addEnvelope(target, envelope);
      changed(target);
      return;
    }
    const block = newBlock(envelope, 'citation', state.info.uuid);
    block.content = citation.citedText;
    addCitation(block, citation);
    block.status = 'complete';
    addEnvelope(block, envelope);
    report(
      'citation.orphan',
      `Citation "${citation.citedText.slice(0, 60)}" of ${agentLabel(envelope.agent)} arrives before any text block of that agent, so there is nothing to attach it to; it is kept as its own block #${block.id}.`,
      envelopeAt(envelope, block),
    );
    changed(block);
  }

  function attachImage(state: AgentState, envelope: Envelope): void {
    const image = {
      src: stringExtra(envelope, 'src') ?? '',
      mediaType: stringExtra(envelope, 'media_type') ?? '',
      envelope: envelope.seq,
    };
    const toolId = stringExtra(envelope, 'id');
    const open = openBlockOf(state, KIND.tool_result, envelope);
    const matches =
      open !== undefined && (toolId === undefined || open.block.toolId === undefined || open.block.toolId === toolId);
    // An image no tool result claims (no id) is the model's own output (Gemini's inlineData):
    // it belongs to the text block it appears in.
    const target = open && matches ? open : toolId === undefined ? openBlockOf(state, KIND.text, envelope) : undefined;
    if (target) {
      addImage(target.block, image);
      addEnvelope(target.block, envelope);
      changed(target.block);
      return;
    }
    // Kept as a block of its own, complete: the image has nowhere else to go.
    const block = newBlock(envelope, 'tool_result_image', state.info.uuid);
    addImage(block, image);
    block.status = 'complete';
    addEnvelope(block, envelope);
    const why = open
      ? `the open tool_result is for id ${open.block.toolId ?? '(none)'}, not ${toolId ?? '(none)'}`
      : 'no tool_result of that agent is open';
    report(
      'tool-result-image.orphan',
      `tool_result_image ${image.src} of ${agentLabel(envelope.agent)} cannot attach to a tool result: ${why}; it is kept as its own block #${block.id}.`,
      envelopeAt(envelope, block),
    );
    changed(block);
  }

  return { attachCitation, attachImage };
}
