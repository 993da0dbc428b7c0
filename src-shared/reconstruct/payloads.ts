import type { Envelope } from '../envelope/types';
import { isJsonObject, parseJsonPayload } from '../json/values';
import { KIND } from '../envelope/vocabulary';
import type { Block, Citation, PendingTool } from './types';
import { stringifyJson } from '../json/tree';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * The pending frontend tools of an `awaiting_frontend_tools` payload: the legacy server sends
 * a JSON array `[{tool_use_id, name, input}]`, agent_base an object `{"tools": [...]}`. A
 * tool with an `approval_id` waits for an approval instead of a result (the AI SDK's dialect);
 * one with an `answer_hint` takes only answers of that form (a Responses computer call's screenshot).
 */
export function readPendingTools(value: unknown): Parsed<PendingTool[]> {
  const list = Array.isArray(value)
    ? value
    : isJsonObject(value) && Array.isArray(value['tools'])
      ? value['tools']
      : undefined;
  if (!list) {
    return {
      ok: false,
      error: 'expected a JSON array of {tool_use_id, name, input} (legacy) or an object {"tools": [...]} (agent_base)',
    };
  }
  const tools: PendingTool[] = [];
  for (const [index, item] of (list as unknown[]).entries()) {
    if (!isJsonObject(item) || typeof item['tool_use_id'] !== 'string' || typeof item['name'] !== 'string') {
      return { ok: false, error: `pending tool ${index} is not an object with string tool_use_id and name` };
    }
    const tool: PendingTool = { toolUseId: item['tool_use_id'], name: item['name'], input: item['input'] };
    if (typeof item['approval_id'] === 'string') tool.approvalId = item['approval_id'];
    if (typeof item['answer_hint'] === 'string') tool.answerHint = item['answer_hint'];
    tools.push(tool);
  }
  return { ok: true, value: tools };
}

/**
 * Whether a block leaves its run waiting for the client: an awaiting_frontend_tools block with
 * calls to answer, or with a paused turn to continue (an empty list of tools asks for nothing).
 */
export function awaitsClient(block: Pick<Block, 'kind' | 'pendingTools' | 'pausedTurn'>): boolean {
  return (
    block.kind === KIND.awaiting_frontend_tools && ((block.pendingTools?.length ?? 0) > 0 || block.pausedTurn === true)
  );
}

export interface CitationReading {
  citation: Citation;
  /** Set when the delta looked like an agent_base JSON citation but did not parse. */
  problem?: string;
}

/**
 * One citation in either wire shape, normalised: the legacy server puts the cited text in
 * `delta` and the metadata in extras (`citation_type`, `document_index`, …); agent_base sends
 * no extras and a JSON object string `{"cited_text", "citation_type", …}` as the delta.
 */
export function readCitation(envelope: Envelope): CitationReading {
  const { citation_type: legacyType, ...legacyFields } = envelope.extras;
  const legacy = (): Citation => ({
    citationType:
      typeof legacyType === 'string' ? legacyType : legacyType === undefined ? '' : (stringifyJson(legacyType) ?? ''),
    citedText: envelope.delta,
    fields: legacyFields,
    envelope: envelope.seq,
  });
  if (legacyType !== undefined || !envelope.delta.trimStart().startsWith('{')) return { citation: legacy() };

  const parsed = parseJsonPayload(envelope.delta);
  if (!parsed.ok || !isJsonObject(parsed.value)) {
    const reason = parsed.ok ? 'it is not a JSON object' : parsed.error;
    return {
      citation: legacy(),
      problem: `the citation has no citation_type extra and its delta looks like an agent_base JSON citation but does not parse (${reason}); the delta is kept as the cited text`,
    };
  }
  const { cited_text: citedText, citation_type: citationType, ...fields } = parsed.value;
  return {
    citation: {
      citationType: typeof citationType === 'string' ? citationType : '',
      citedText: typeof citedText === 'string' ? citedText : '',
      fields,
      envelope: envelope.seq,
    },
  };
}
