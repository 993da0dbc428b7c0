import type { WireFormat } from '../../../src-shared/agents/wire-formats';
import type { PyValue } from './python-json';

/**
 * What a scenario is made of: the steps an upstream agent run goes through, at the level
 * of the Anthropic API stream (what the SDK yields to the formatters) and of the agent
 * loop (what `core/agent.py` puts on the queue itself). The format emitters turn each step
 * into wire items exactly as the upstream formatters would.
 */

export { WIRE_FORMATS as FORMATS } from '../../../src-shared/agents/wire-formats';
export type Format = WireFormat;

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'pause_turn';

export type Citation =
  | {
      type: 'char_location';
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_char_index: number;
      end_char_index: number;
    }
  | {
      type: 'page_location';
      cited_text: string;
      document_index: number;
      document_title: string | null;
      start_page_number: number;
      end_page_number: number;
    }
  | {
      type: 'web_search_result_location';
      cited_text: string;
      url: string;
      title: string | null;
      encrypted_index: string;
    };

export type ServerToolResultType =
  | 'web_search_tool_result'
  | 'web_fetch_tool_result'
  | 'bash_code_execution_tool_result'
  | 'text_editor_code_execution_tool_result';

/** Content blocks with the fields the SDK models dump, in their order. */
export type ContentBlock =
  | { type: 'text'; text: string; citations: Citation[] | null }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: PyValue }
  | { type: 'server_tool_use'; id: string; name: string; input: PyValue }
  /** `content` may hold PyModels: json/xml print their repr, raw and history their fields. */
  | { type: ServerToolResultType; tool_use_id: string; content: PyValue };

export type Delta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'signature_delta'; signature: string }
  | { type: 'input_json_delta'; partial_json: string };

export interface Usage {
  input_tokens: number;
  output_tokens: number;
}

export interface ApiMessage {
  id: string;
  model: string;
  content: ContentBlock[];
  stop_reason: StopReason | null;
  usage: Usage;
}

/** The six Anthropic stream events the formatters see (enriched stop events, as the SDK yields them). */
export type ApiEvent =
  | { type: 'message_start'; message: ApiMessage }
  | { type: 'content_block_start'; index: number; block: ContentBlock }
  | { type: 'content_block_delta'; index: number; delta: Delta }
  | { type: 'content_block_stop'; index: number; block: ContentBlock }
  | { type: 'message_delta'; stop_reason: StopReason; usage: Usage }
  | { type: 'message_stop'; message: ApiMessage };

export interface ImageRef {
  src: string;
  media_type: string;
}

export interface PendingTool {
  tool_use_id: string;
  name: string;
  input: PyValue;
}

/** `meta_init` without `format`, which the emitter fills in (it depends on the wire format). */
export interface MetaInit {
  user_query: string;
  agent_uuid: string;
  parent_agent_uuid: string | null;
  model: string;
  message_history?: PyValue;
}

export type Step =
  /** One Anthropic stream event of `agent`'s current API call. */
  | { kind: 'api'; agent: string; event: ApiEvent }
  | { kind: 'meta_init'; agent: string; payload: MetaInit }
  /** A backend (or, on resume, frontend) tool result; `content` is a string or content blocks. */
  | { kind: 'tool_result'; agent: string; toolUseId: string; name: string; content: PyValue; images: ImageRef[] }
  | { kind: 'awaiting_frontend_tools'; agent: string; tools: PendingTool[] }
  | { kind: 'meta_files'; agent: string; files: PyValue[] }
  | { kind: 'meta_final'; agent: string; payload: PyValue }
  /** The router's error frame; nothing follows it. */
  | { kind: 'error_frame'; error: string; message: string; traceback: string }
  | { kind: 'done' }
  /** Hand-made bytes written verbatim (no `data:` framing): the fault scenarios. */
  | { kind: 'wire'; label: string; render: (format: Format) => string }
  /** Stop mid-stream: end the response cleanly, or drop the connection without ending the HTTP response. */
  | { kind: 'cut'; mode: 'end' | 'drop' };

export interface FrontendResult {
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** A run that stops at `awaiting_frontend_tools`; `resume` continues it with the user's results. */
export interface Pause {
  agent: string;
  tools: PendingTool[];
  resume(results: readonly FrontendResult[]): Script;
}

export interface Script {
  steps: Step[];
  pause?: Pause;
}
