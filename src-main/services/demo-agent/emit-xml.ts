import { htmlEscape } from '../../../src-shared/dialects/legacy-xml/entities';
import { xmlStreamEscape } from '../../../src-shared/dialects/legacy-xml/escaping';
import { pyDumps, type PyValue } from './python-json';
import type { ApiEvent, Citation, ContentBlock } from './script';
import { createCallBlocks, parsePartialJson, type AgentStep, type Formatter } from './emit-shared';
import { xmlAgentItem } from './emit-xml-agent';

interface XmlBlock {
  type: ContentBlock['type'];
  isOpen: boolean;
  tool?: { id: string; name: string; inputJson?: string };
  result?: { toolUseId: string; content: PyValue };
}

/** `escape_xml_attr(str(value))`: Python prints None as None. */
const attr = (value: number | string | null | undefined): string =>
  htmlEscape(value === undefined ? '' : value === null ? 'None' : String(value));

/** One `<citation>` as the xml formatter builds it (attributes by citation type, cited text in unprotected CDATA). */
function citationXml(citation: Citation): string {
  const cdata = `<![CDATA[${citation.cited_text}]]>`;
  const type = htmlEscape(citation.type);
  switch (citation.type) {
    case 'char_location':
      return `<citation type="${type}" document_index="${attr(citation.document_index)}" document_title="${htmlEscape(citation.document_title ?? '')}" start_char_index="${attr(citation.start_char_index)}" end_char_index="${attr(citation.end_char_index)}">${cdata}</citation>`;
    case 'page_location':
      return `<citation type="${type}" document_index="${attr(citation.document_index)}" document_title="${htmlEscape(citation.document_title ?? '')}" start_page_number="${attr(citation.start_page_number)}" end_page_number="${attr(citation.end_page_number)}">${cdata}</citation>`;
    case 'web_search_result_location':
      return `<citation type="${type}" url="${htmlEscape(citation.url)}" title="${htmlEscape(citation.title ?? '')}">${cdata}</citation>`;
  }
}

/**
 * `xml_formatter` (formatter layer: tags and deltas go through `stream_xml_to_aqueue`) plus
 * the agent layer's XML items. State per agent, reset at each `message_start`; a retried
 * call therefore leaves the previous call's tag open, as upstream.
 */
export function createXmlFormatter(): Formatter {
  const callBlocks = createCallBlocks<XmlBlock>();
  const item = (text: string): string => xmlStreamEscape(text);

  function api(agent: string, event: ApiEvent): string[] {
    const blocks = callBlocks(agent, event);
    switch (event.type) {
      case 'content_block_start': {
        const block = event.block;
        const state: XmlBlock = { type: block.type, isOpen: false };
        blocks.set(event.index, state);
        if (block.type === 'thinking' || block.type === 'text') {
          state.isOpen = true;
          return [item(`<content-block-${block.type}>`)];
        }
        if (block.type === 'tool_use' || block.type === 'server_tool_use')
          state.tool = { id: block.id, name: block.name };
        else state.result = { toolUseId: block.tool_use_id, content: block.content };
        return [];
      }
      case 'content_block_delta': {
        const state = blocks.get(event.index);
        const delta = event.delta;
        if (delta.type === 'text_delta') return delta.text ? [item(delta.text)] : [];
        if (delta.type === 'thinking_delta') return delta.thinking ? [item(delta.thinking)] : [];
        if (delta.type === 'input_json_delta' && state?.tool)
          state.tool.inputJson = (state.tool.inputJson ?? '') + delta.partial_json;
        return [];
      }
      case 'content_block_stop': {
        const state = blocks.get(event.index);
        if (!state) return [];
        if (state.isOpen) {
          state.isOpen = false;
          if (state.type === 'thinking') return [item('</content-block-thinking>')];
          const citations = event.block.type === 'text' ? (event.block.citations ?? []) : [];
          const close = item('</content-block-text>');
          return citations.length === 0
            ? [close]
            : [close, item(`<citations>${citations.map(citationXml).join('')}</citations>`)];
        }
        if (state.tool) {
          // Only a buffer that received deltas is parsed (json.loads('') fails → the raw string).
          const input = state.tool.inputJson === undefined ? {} : parsePartialJson(state.tool.inputJson);
          const tag = state.type === 'tool_use' ? 'content-block-tool_call' : 'content-block-server_tool_call';
          const attrs = `id="${htmlEscape(state.tool.id)}" name="${htmlEscape(state.tool.name)}" arguments="${htmlEscape(pyDumps(input))}"`;
          return [item(`<${tag} ${attrs}></${tag}>`)];
        }
        if (state.result) {
          const { content } = state.result;
          const body = content === null ? '' : typeof content === 'string' ? content : pyDumps(content);
          const attrs = `id="${htmlEscape(state.result.toolUseId)}" name="${htmlEscape(state.type)}"`;
          return [
            item(`<content-block-server_tool_result ${attrs}><![CDATA[${body}]]></content-block-server_tool_result>`),
          ];
        }
        return [];
      }
      default:
        return [];
    }
  }

  return (step: AgentStep): string[] =>
    step.kind === 'api' ? api(step.agent, step.event) : [xmlAgentItem(step, 'xml')];
}
