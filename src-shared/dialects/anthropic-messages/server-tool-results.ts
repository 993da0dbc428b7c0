import { unified } from '../../envelope/unified';
import { jsonText } from '../../json/tree';
import type { ProviderEventContext } from '../provider/event-context';
import type { MessagesStream, OpenBlock } from './stream-state';

/*
 * Server and MCP tool result blocks (`web_search_tool_result`, `mcp_tool_result`…): their
 * content arrives whole in the block's start event and becomes one server_tool_result,
 * linked to its call by tool_use_id.
 */

/** Result blocks of server tools: every `*_tool_result` type the API has, and MCP's. */
export function isToolResultBlock(type: string): boolean {
  return type.endsWith('_tool_result');
}

/** A server or MCP tool result block: its content, whole in the start's block, as one server_tool_result. */
export function toolResult(s: MessagesStream, ctx: ProviderEventContext, index: number, block: OpenBlock): void {
  const content = block.start['content'];
  const failed = isErrorContent(content);
  ctx.emit(
    {
      type: 'server_tool_result',
      final: true,
      delta: content === undefined || content === null ? '' : typeof content === 'string' ? content : jsonText(content),
      extras: { id: block.toolUseId, name: block.type },
    },
    unified('stream.tool_call_result', s.ids(index, block), {
      kind: block.type,
      phase: failed ? 'failed' : 'completed',
      ...(failed ? { error: content } : {}),
      search_results: searchResults(content),
    }),
  );
}

/** The `web_search_result` entries of a result's content, as `{url, title}`; undefined when there are none. */
function searchResults(content: unknown): { url: string; title: string }[] | undefined {
  if (!Array.isArray(content)) return undefined;
  const results = content.filter(
    (r): r is Record<string, unknown> =>
      typeof r === 'object' && r !== null && (r as Record<string, unknown>)['type'] === 'web_search_result',
  );
  return results.length > 0
    ? results.map((r) => ({
        url: typeof r['url'] === 'string' ? r['url'] : '',
        title: typeof r['title'] === 'string' ? r['title'] : '',
      }))
    : undefined;
}

/** A tool result whose content is an error object (`web_search_tool_result_error`, `*_error`…). */
function isErrorContent(content: unknown): boolean {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return false;
  const type = (content as Record<string, unknown>)['type'];
  return typeof type === 'string' && type.endsWith('_error');
}
