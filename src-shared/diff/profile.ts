import { DIALECT_REGISTRY, type DialectId, type DialectRegistry } from '../dialects/registry';
import { isJsonObject } from '../json/values';
import type { Block } from '../reconstruct/types';
import type { DiffInput, Generation, SideProfile } from './types';
import { KIND } from '../envelope/vocabulary';

/**
 * The agent_base server generation shows itself in its payloads (docs/protocols/upstream-protocol.md §10):
 * a `conversation_log` in meta_init/meta_final, `envelope_log` on tool results, the
 * `{"tools": …}` awaiting payload, JSON-object citation deltas.
 */
function detectGeneration(input: DiffInput): Generation {
  for (const block of input.blocks) {
    if (
      (block.kind === KIND.meta_init || block.kind === KIND.meta_final) &&
      isJsonObject(block.parsed) &&
      'conversation_log' in block.parsed
    )
      return 'agent_base';
    if (
      block.kind === KIND.awaiting_frontend_tools &&
      isJsonObject(block.parsed) &&
      Array.isArray(block.parsed['tools'])
    )
      return 'agent_base';
  }
  for (const envelope of input.envelopes) {
    if ('envelope_log' in envelope.extras) return 'agent_base';
    if (
      envelope.type === KIND.citation &&
      !('citation_type' in envelope.extras) &&
      envelope.delta.trimStart().startsWith('{')
    )
      return 'agent_base';
  }
  return 'legacy';
}

export function profileSide(input: DiffInput, registry: DialectRegistry = DIALECT_REGISTRY): SideProfile {
  const dialects: DialectId[] = [];
  for (const envelope of input.envelopes) {
    if (envelope.control === 'done' || envelope.control === 'error-frame') continue;
    if (!dialects.includes(envelope.dialect)) dialects.push(envelope.dialect);
  }
  // Blocks of no agent (a provider stream) belong to no agent: they are counted apart, so the
  // side reads "unattributed" rather than as one agent more.
  const agents = new Set<string>(input.agents.map((a) => a.uuid));
  for (const block of input.blocks) agents.add(block.agent);
  const unattributed = agents.delete('');
  const modules = dialects.map((d) => registry.get(d));
  return {
    dialects,
    generation: modules.some((m) => m?.serverGenerations === true) ? detectGeneration(input) : undefined,
    attributesAgents: modules.every((m) => m?.attributesAgents === true),
    xmlItems: modules.some((m) => m?.agentXmlItems === true),
    xmlText: modules.length > 0 && modules.every((m) => m?.textAsXml === true),
    agents: agents.size,
    unattributed,
    blocks: input.blocks.length,
  };
}

/** Blocks in the order they opened (ids are assigned in that order). */
export function blocksInOrder(blocks: readonly Block[]): Block[] {
  return [...blocks].sort((a, b) => a.id - b.id);
}
