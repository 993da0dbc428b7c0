import { serializeEnvelope } from '../../../src-shared/envelope/budget';
import { KIND, type EnvelopeKind } from '../../../src-shared/envelope/vocabulary';
import { chunkEnvelopes } from './chunk-payload';
import { pyDumps, type PyValue } from './python-json';
import type { ApiEvent, Citation, ContentBlock, Step } from './script';
import {
  createCallBlocks,
  metaInitPayload,
  parsePartialJson,
  pendingToolsValue,
  textParts,
  type AgentStep,
  type Formatter,
} from './emit-shared';

interface BufferedBlock {
  type: ContentBlock['type'];
  tool?: { id: string; name: string; inputJson: string };
  result?: { toolUseId: string; content: PyValue; blockType: string };
}

/** Citation fields the upstream copies onto the envelope when present and not null, in this order. */
const CITATION_FIELDS = [
  'document_index',
  'document_title',
  'start_char_index',
  'end_char_index',
  'start_page_number',
  'end_page_number',
  'url',
  'title',
] as const;

function citationEnvelope(agent: string, citation: Citation, final: boolean): string {
  const fields = citation as unknown as Readonly<Record<string, PyValue | undefined>>;
  const extras: Record<string, unknown> = { citation_type: citation.type };
  for (const key of CITATION_FIELDS) {
    const value = fields[key];
    if (value !== undefined && value !== null) extras[key] = value;
  }
  return serializeEnvelope({ type: KIND.citation, agent, extras }, final, citation.cited_text);
}

/**
 * `json_formatter` (formatter layer) plus the agent layer's JSON branches. State is kept per
 * agent and reset at each `message_start`, as each API call runs a fresh formatter.
 */
export function createJsonFormatter(): Formatter {
  const callBlocks = createCallBlocks<BufferedBlock>();

  const chunk = (
    type: EnvelopeKind,
    agent: string,
    payload: string,
    finalOnLast: boolean,
    extras: Record<string, unknown> = {},
  ): string[] => chunkEnvelopes({ type, agent, extras }, payload, finalOnLast);

  function api(agent: string, event: ApiEvent): string[] {
    const blocks = callBlocks(agent, event);
    switch (event.type) {
      case 'content_block_start': {
        const block = event.block;
        const state: BufferedBlock = { type: block.type };
        if (block.type === 'tool_use' || block.type === 'server_tool_use')
          state.tool = { id: block.id, name: block.name, inputJson: '' };
        else if (block.type !== 'text' && block.type !== 'thinking')
          state.result = { toolUseId: block.tool_use_id, content: block.content, blockType: block.type };
        blocks.set(event.index, state);
        return [];
      }
      case 'content_block_delta': {
        const state = blocks.get(event.index);
        if (!state) return [];
        const delta = event.delta;
        if (delta.type === 'text_delta')
          return delta.text ? [serializeEnvelope({ type: KIND.text, agent, extras: {} }, false, delta.text)] : [];
        if (delta.type === 'thinking_delta')
          return delta.thinking
            ? [serializeEnvelope({ type: KIND.thinking, agent, extras: {} }, false, delta.thinking)]
            : [];
        if (delta.type === 'input_json_delta' && state.tool) state.tool.inputJson += delta.partial_json;
        return [];
      }
      case 'content_block_stop': {
        const state = blocks.get(event.index);
        if (!state) return [];
        if (state.type === 'text' || state.type === 'thinking') {
          const items = [serializeEnvelope({ type: state.type, agent, extras: {} }, true, '')];
          const citations = event.block.type === 'text' ? (event.block.citations ?? []) : [];
          citations.forEach((c, i) => items.push(citationEnvelope(agent, c, i === citations.length - 1)));
          return items;
        }
        blocks.delete(event.index);
        if (state.tool) {
          const input = state.tool.inputJson ? parsePartialJson(state.tool.inputJson) : {};
          const type = state.type === 'tool_use' ? 'tool_call' : 'server_tool_call';
          return chunk(type, agent, pyDumps(input, { ensureAscii: false }), true, {
            id: state.tool.id,
            name: state.tool.name,
          });
        }
        if (state.result) {
          const { content } = state.result;
          const payload = content === null ? '' : typeof content === 'string' ? content : pyDumps(content);
          return chunk('server_tool_result', agent, payload, true, {
            id: state.result.toolUseId,
            name: state.result.blockType,
          });
        }
        return [];
      }
      default:
        return [];
    }
  }

  function toolResult(step: Extract<Step, { kind: 'tool_result' }>): string[] {
    const ids = { id: step.toolUseId, name: step.name };
    if (step.images.length === 0) {
      const payload =
        step.content === null ? '' : typeof step.content === 'string' ? step.content : pyDumps(step.content);
      return chunk('tool_result', step.agent, payload, true, ids);
    }
    return [
      ...chunk('tool_result', step.agent, textParts(step.content), false, ids),
      ...step.images.flatMap((image) =>
        chunk('tool_result_image', step.agent, '', false, { ...ids, src: image.src, media_type: image.media_type }),
      ),
      ...chunk('tool_result', step.agent, '', true, ids),
    ];
  }

  return (step: AgentStep): string[] => {
    switch (step.kind) {
      case 'api':
        return api(step.agent, step.event);
      case 'meta_init':
        return chunk(
          'meta_init',
          step.agent,
          pyDumps(metaInitPayload('json', step.payload), { ensureAscii: false }),
          true,
        );
      case 'tool_result':
        return toolResult(step);
      case 'awaiting_frontend_tools':
        return chunk(
          'awaiting_frontend_tools',
          step.agent,
          pyDumps(pendingToolsValue(step.tools), { ensureAscii: false }),
          true,
        );
      case 'meta_files':
        return chunk('meta_files', step.agent, pyDumps({ files: step.files }, { compact: true }), true);
      case 'meta_final':
        return chunk('meta_final', step.agent, pyDumps(step.payload, { ensureAscii: false }), true);
    }
  };
}
