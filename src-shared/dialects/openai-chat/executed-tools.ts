import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject, parseJson } from '../../json/values';
import type { ProviderEventContext } from '../provider/event-context';
import { closeText } from './choice-output';
import type { Choice, Completion } from './completion';

/**
 * The tools a server ran itself and says so in a delta: Groq's compound models send
 * `delta.executed_tools[]` (`{index, type, arguments, output?, search_results?}`), an entry
 * when the tool starts (its arguments, an empty `search_results`) and the same index again
 * with what it gave (`output`, the results). The first sight of an index is a server tool
 * call (the open text block closes: the call comes between the reasoning before and after
 * it); its first entry with an `output`, or with search results, is that call's result.
 */
export function writeExecutedTools(
  ctx: ProviderEventContext,
  current: Completion,
  choice: Choice,
  tools: readonly unknown[],
): void {
  tools.forEach((entry, position) => {
    if (!isJsonObject(entry)) return;
    const index = typeof entry['index'] === 'number' && Number.isInteger(entry['index']) ? entry['index'] : position;
    const name = typeof entry['type'] === 'string' && entry['type'] !== '' ? entry['type'] : 'executed_tool';
    const id = `${choice.agent}/executed_tools/${index}`;
    let state = choice.executedTools.get(index);
    if (!state) {
      closeText(ctx, current, choice);
      choice.clock.token(ctx.frame.receivedAt);
      const args = entry['arguments'];
      // Arguments that are JSON text are shown parsed, any other text as it came.
      const parsed = typeof args === 'string' ? parseJson(args) : undefined;
      ctx.emit({
        type: KIND.server_tool_call,
        final: true,
        delta: jsonText({
          type: entry['type'],
          arguments: parsed === undefined ? args : parsed.ok ? parsed.value : args,
        }),
        extras: { id, name },
      });
      state = { answered: false };
      choice.executedTools.set(index, state);
    }
    if (state.answered) return;
    const output = entry['output'];
    const results = entry['search_results'];
    const found = isJsonObject(results) && Array.isArray(results['results']) && results['results'].length > 0;
    if ((output === undefined || output === null) && !found) return;
    state.answered = true;
    ctx.emit({
      type: KIND.server_tool_result,
      final: true,
      delta: typeof output === 'string' ? output : jsonText(output ?? results),
      extras: { id, name },
    });
  });
}
