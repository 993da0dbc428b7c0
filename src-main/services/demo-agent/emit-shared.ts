import type { PyValue } from './python-json';
import type { ApiEvent, Format, MetaInit, PendingTool, Step } from './script';

/** Steps an agent puts on the queue (as opposed to router-level steps: [DONE], error frame, faults). */
export type AgentStep = Extract<Step, { agent: string }>;

/** One wire format's formatter: a step in, the queue items (SSE data payloads) out. */
export type Formatter = (step: AgentStep) => string[];

/**
 * A formatter's blocks per agent, by index, for the API call an event belongs to: a
 * message_start begins a call with no blocks, as upstream runs a fresh formatter per call.
 */
export type CallBlocks<T> = (agent: string, event: ApiEvent) => Map<number, T>;

export function createCallBlocks<T>(): CallBlocks<T> {
  const calls = new Map<string, Map<number, T>>();
  return (agent, event) => {
    let blocks = event.type === 'message_start' ? undefined : calls.get(agent);
    if (!blocks) calls.set(agent, (blocks = new Map<number, T>()));
    return blocks;
  };
}

/** `json.loads(buffer)`, falling back to the raw string as the upstream formatters do. */
export function parsePartialJson(text: string): PyValue {
  try {
    return JSON.parse(text) as PyValue;
  } catch {
    return text;
  }
}

/** The text parts of a multimodal tool result, joined with LF (`_emit_tool_result`). */
export function textParts(content: PyValue): string {
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as readonly PyValue[]) {
    if (block && typeof block === 'object' && !Array.isArray(block)) {
      const record = block as Readonly<Record<string, PyValue>>;
      if (record['type'] === 'text') parts.push(typeof record['text'] === 'string' ? record['text'] : '');
    }
  }
  return parts.join('\n');
}

/** The meta_init payload in the upstream key order, `format` first. */
export function metaInitPayload(format: Format, meta: MetaInit): PyValue {
  const payload: Record<string, PyValue> = {
    format,
    user_query: meta.user_query,
    agent_uuid: meta.agent_uuid,
    parent_agent_uuid: meta.parent_agent_uuid,
    model: meta.model,
  };
  if (meta.message_history !== undefined) payload['message_history'] = meta.message_history;
  return payload;
}

export function pendingToolsValue(tools: readonly PendingTool[]): PyValue {
  return tools.map((t) => ({ tool_use_id: t.tool_use_id, name: t.name, input: t.input }));
}

/** `stream_to_aqueue` (raw format): only LF is written as `\n`. */
export function rawStreamEscape(text: string): string {
  return text.replaceAll('\n', '\\n');
}
