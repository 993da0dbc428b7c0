import { isJsonObject } from '../../json/values';

/**
 * The names of the custom tools a response says its request defined: the `custom` tools of
 * its `tools`, those grouped in a `namespace` included (docs/protocols/provider-events.md,
 * client tools of a Responses stream). Undefined when the response cannot say: it lists no
 * tools (a capture that lacks its response.created, a proxy that drops the field), or it
 * lists `tool_search`, which loads tools the list does not show.
 *
 * A custom tool call named after none of them is not the client's to run: xAI's Responses API
 * streams its own x_search tool's calls as `custom_tool_call` items (`x_keyword_search`,
 * `view_x_video`) and runs them itself, in a response whose tools list only `x_search`.
 */
export function customToolNames(tools: unknown): ReadonlySet<string> | undefined {
  if (!Array.isArray(tools)) return undefined;
  const names = new Set<string>();
  const visit = (list: readonly unknown[]): boolean =>
    list.every((tool) => {
      if (!isJsonObject(tool)) return true;
      if (tool['type'] === 'tool_search') return false;
      if (tool['type'] === 'custom' && typeof tool['name'] === 'string') names.add(tool['name']);
      return tool['type'] !== 'namespace' || !Array.isArray(tool['tools']) || visit(tool['tools']);
    });
  return visit(tools) ? names : undefined;
}
