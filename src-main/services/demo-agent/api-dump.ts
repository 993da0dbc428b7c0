import { toPlain, type PyValue } from './python-json';
import type { ApiEvent, ApiMessage, Citation, ContentBlock, Delta, Usage } from './script';

/**
 * The Anthropic SDK's `model_dump` of stream events, messages and content blocks, with the
 * key order its generated models have (the raw format prints these, the conversation
 * history in `meta_final` holds the blocks).
 */

export function dumpCitation(citation: Citation): PyValue {
  switch (citation.type) {
    case 'char_location':
      return {
        cited_text: citation.cited_text,
        document_index: citation.document_index,
        document_title: citation.document_title,
        end_char_index: citation.end_char_index,
        file_id: null,
        start_char_index: citation.start_char_index,
        type: citation.type,
      };
    case 'page_location':
      return {
        cited_text: citation.cited_text,
        document_index: citation.document_index,
        document_title: citation.document_title,
        end_page_number: citation.end_page_number,
        file_id: null,
        start_page_number: citation.start_page_number,
        type: citation.type,
      };
    case 'web_search_result_location':
      return {
        cited_text: citation.cited_text,
        encrypted_index: citation.encrypted_index,
        title: citation.title,
        type: citation.type,
        url: citation.url,
      };
  }
}

export function dumpBlock(block: ContentBlock): PyValue {
  switch (block.type) {
    case 'text':
      return {
        citations: block.citations ? block.citations.map(dumpCitation) : null,
        text: block.text,
        type: block.type,
      };
    case 'thinking':
      return { signature: block.signature, thinking: block.thinking, type: block.type };
    case 'tool_use':
      return { id: block.id, input: block.input, name: block.name, type: block.type };
    case 'server_tool_use':
      return { id: block.id, caller: null, input: block.input, name: block.name, type: block.type };
    default:
      return { content: toPlain(block.content), tool_use_id: block.tool_use_id, type: block.type };
  }
}

function dumpDelta(delta: Delta): PyValue {
  switch (delta.type) {
    case 'text_delta':
      return { text: delta.text, type: delta.type };
    case 'thinking_delta':
      return { thinking: delta.thinking, type: delta.type };
    case 'signature_delta':
      return { signature: delta.signature, type: delta.type };
    case 'input_json_delta':
      return { partial_json: delta.partial_json, type: delta.type };
  }
}

function dumpUsage(usage: Usage): PyValue {
  return {
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    server_tool_use: null,
    service_tier: 'standard',
  };
}

export function dumpMessage(message: ApiMessage): PyValue {
  return {
    id: message.id,
    container: null,
    content: message.content.map(dumpBlock),
    context_management: null,
    model: message.model,
    role: 'assistant',
    stop_reason: message.stop_reason,
    stop_sequence: null,
    type: 'message',
    usage: dumpUsage(message.usage),
  };
}

/** One stream event as `event.model_dump_json()` orders it; stop events carry the SDK's accumulated block/message. */
export function dumpEvent(event: ApiEvent): PyValue {
  switch (event.type) {
    case 'message_start':
      return { message: dumpMessage(event.message), type: event.type };
    case 'content_block_start':
      return { content_block: dumpBlock(event.block), index: event.index, type: event.type };
    case 'content_block_delta':
      return { delta: dumpDelta(event.delta), index: event.index, type: event.type };
    case 'content_block_stop':
      return { index: event.index, type: event.type, content_block: dumpBlock(event.block) };
    case 'message_delta':
      return {
        context_management: null,
        delta: { container: null, stop_reason: event.stop_reason, stop_sequence: null },
        type: event.type,
        usage: {
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          input_tokens: event.usage.input_tokens,
          output_tokens: event.usage.output_tokens,
          server_tool_use: null,
        },
      };
    case 'message_stop':
      return { type: event.type, message: dumpMessage(event.message) };
  }
}

/** The assistant turn as the agent appends it to its history (`model_dump(include=["role","content"])`). */
export function assistantMessage(content: readonly ContentBlock[]): PyValue {
  return { content: content.map(dumpBlock), role: 'assistant' };
}
