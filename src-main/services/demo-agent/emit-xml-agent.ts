import { htmlEscape } from '../../../src-shared/dialects/legacy-xml/entities';
import { escapeToolResultCdata } from '../../../src-shared/dialects/legacy-xml/escaping';
import { pyDumps } from './python-json';
import type { Format } from './script';
import { metaInitPayload, pendingToolsValue, textParts, type AgentStep } from './emit-shared';

/**
 * The agent layer's items in the xml and raw formats (both use XML here). They are put on
 * the queue directly: no backslash doubling; JSON attributes use `json.dumps` defaults
 * (ASCII-only, spaced separators) and are HTML-escaped.
 */
export function xmlAgentItem(step: Exclude<AgentStep, { kind: 'api' }>, format: Exclude<Format, 'json'>): string {
  switch (step.kind) {
    case 'meta_init':
      return `<meta_init data="${htmlEscape(pyDumps(metaInitPayload(format, step.payload)))}"></meta_init>`;
    case 'tool_result': {
      const open = `<content-block-tool_result id="${htmlEscape(step.toolUseId)}" name="${htmlEscape(step.name)}">`;
      if (step.images.length > 0) {
        const images = step.images
          .map((i) => `<image src="${htmlEscape(i.src)}" media_type="${htmlEscape(i.media_type)}" />`)
          .join('');
        return `${open}<text><![CDATA[${escapeToolResultCdata(textParts(step.content))}]]></text>${images}</content-block-tool_result>`;
      }
      const content =
        step.content === null ? '' : typeof step.content === 'string' ? step.content : pyDumps(step.content);
      return `${open}<![CDATA[${escapeToolResultCdata(content)}]]></content-block-tool_result>`;
    }
    case 'awaiting_frontend_tools':
      return `<awaiting_frontend_tools data="${htmlEscape(pyDumps(pendingToolsValue(step.tools)))}"></awaiting_frontend_tools>`;
    case 'meta_files':
      return `<content-block-meta_files><![CDATA[${pyDumps({ files: step.files }, { compact: true })}]]></content-block-meta_files>`;
    case 'meta_final':
      return `<meta_final data="${htmlEscape(pyDumps(step.payload))}"></meta_final>`;
  }
}
