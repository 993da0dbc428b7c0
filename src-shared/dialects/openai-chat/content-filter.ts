import type { ProviderEventContext } from '../provider/event-context';
import type { DialectCallbacks } from '../types';
import type { Choice } from './completion';
import { CUT_SHORT_BY, filteredCategories } from './vocabulary';

/**
 * Azure OpenAI's asynchronous content filter judges the answer after it streamed: its verdicts
 * come as annotation chunks (a choice with `content_filter_results` and
 * `content_filter_offsets`, no delta, in a chunk with an empty id), interleaved with the answer
 * and after the model's finish_reason. A verdict that filtered a category (a blocklist, a
 * harm category) after the model finished with `stop` has no finish_reason of its own, as
 * Azure recorded it (svir's `azure-async-flagged.sse`): the verdict alone says the answer was
 * blocked. The choice ends as a finish_reason `content_filter` ends it: incomplete, cut short
 * by a content filter, reported once. A choice already cut short (`length`,
 * `content_filter`) stays as it is.
 */
export function filterVerdictAfterFinish(
  ctx: ProviderEventContext,
  choice: Choice,
  results: unknown,
  onStreamEnd: DialectCallbacks['onStreamEnd'],
): void {
  if (choice.finish === undefined || choice.clock.status !== 'completed') return;
  const categories = filteredCategories(results);
  if (categories.length === 0) return;
  const reason = 'content_filter';
  choice.clock.status = 'incomplete';
  choice.clock.incompleteDetails = { reason, categories };
  const by = CUT_SHORT_BY[reason] ?? reason;
  ctx.report(
    'provider.response-incomplete',
    `Event ${ctx.frame.seq} says ${by} filtered choice ${choice.index}'s output (${categories.join(', ')}) after it finished with finish_reason "${choice.finish}": the verdict of Azure's asynchronous filter, which blocks the answer that streamed.`,
  );
  onStreamEnd?.({
    event: "the content filter's verdict",
    incomplete: `${by} filtered choice ${choice.index} (${categories.join(', ')}) after its finish_reason "${choice.finish}"`,
  });
}
