import type { AgentInfoPayload, BlockSummary, DiagnosticPayload } from '../../src-shared/contract';
import type { DecodeResult } from '../../src-shared/pipeline/types';

/**
 * Test helper: a decoded stream as the payloads main sends for it (the subset of fields the
 * renderer models read), so model tests run on real fixtures without importing src-main.
 */
export function sessionPayloads(result: Pick<DecodeResult, 'agents' | 'blocks' | 'diagnostics'>): {
  agents: AgentInfoPayload[];
  blocks: BlockSummary[];
  diagnostics: DiagnosticPayload[];
} {
  return {
    agents: result.agents.map((a) => ({
      uuid: a.uuid,
      parent: a.parent,
      firstEnvelope: a.firstEnvelope,
      ...(a.model !== undefined ? { model: a.model } : {}),
      ...(a.userQuery !== undefined ? { userQuery: a.userQuery } : {}),
    })),
    blocks: result.blocks.map((b) => ({
      id: b.id,
      agent: b.agent,
      kind: b.kind,
      status: b.status,
      ...(b.toolId !== undefined ? { toolId: b.toolId } : {}),
      ...(b.name !== undefined ? { name: b.name } : {}),
      ...(b.linkedBlock !== undefined ? { linkedBlock: b.linkedBlock } : {}),
      ...(b.pendingTools
        ? {
            pendingTools: b.pendingTools.map((t) => ({
              toolUseId: t.toolUseId,
              name: t.name,
              input: t.input ?? null,
              ...(t.approvalId !== undefined ? { approvalId: t.approvalId } : {}),
            })),
          }
        : {}),
      length: b.content.length,
      // Main escapes control characters in previews; the models read previews that way.
      preview: b.content.slice(0, 120).replace(/\n/g, '\\n'),
      citations: b.citations.length,
      images: b.images.length,
      firstEnvelope: b.envelopes[0] ?? 0,
      lastEnvelope: b.envelopes.at(-1) ?? 0,
      envelopeCount: b.envelopes.length,
      leg: b.leg,
      byteStart: b.byteStart,
      byteEnd: b.byteEnd,
    })),
    diagnostics: result.diagnostics.map((d) => ({
      seq: d.seq,
      rule: d.rule,
      severity: d.severity,
      message: d.message,
      at: { ...d.at },
    })),
  };
}
