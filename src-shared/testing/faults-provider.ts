import type { DialectId } from '../dialects/registry';
import { KIND } from '../envelope/vocabulary';
import {
  type FaultKind,
  event,
  replaced,
  insertedBefore,
  insertedAfter,
  indexes,
  type Json,
  parse,
  withFields,
} from './faults-kit';

/** Faults of the Anthropic Messages and OpenAI Responses streams. */

const ANTHROPIC: readonly DialectId[] = ['anthropic-messages'];
const OPENAI: readonly DialectId[] = ['openai-responses'];
const PROVIDERS: readonly DialectId[] = [...ANTHROPIC, ...OPENAI];
const typed = (test: (type: string, e: Json) => boolean) => (events: readonly string[]) =>
  indexes(events, (data) => {
    const e = parse(data);
    return typeof e?.['type'] === 'string' && test(e['type'], e);
  });
const isTerminal = (type: string): boolean => type === 'message_stop' || type === 'response.completed';
const isDelta = (type: string): boolean => type === 'content_block_delta' || type === 'response.output_text.delta';
/** The event that opened what event `site` addresses (same index, output index and content index). */
function openerOf(events: readonly string[], site: number, opener: (type: string) => boolean): number {
  const e = parse(events[site] ?? '') ?? {};
  for (let i = site - 1; i >= 0; i--) {
    const o = parse(events[i] ?? '') ?? {};
    if (opener(String(o['type'])) && o['index'] === e['index'] && o['output_index'] === e['output_index']) return i;
  }
  return 0;
}

export const PROVIDER_FAULTS: FaultKind[] = [
  {
    rule: 'provider.api-error',
    name: 'error event instead of the rest',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) => {
      const anthropic = parse(events[site] ?? '')?.['type'] === 'content_block_delta';
      const error = anthropic
        ? { type: KIND.error, error: { type: 'overloaded_error', message: 'Overloaded' } }
        : { type: KIND.error, code: 'rate_limit_exceeded', message: 'Slow down', param: null, sequence_number: site };
      return { parts: [...events.slice(0, site).map(event), event(JSON.stringify(error))], target: site };
    },
  },
  {
    rule: 'provider.response-failed',
    name: 'response.failed instead of response.completed',
    dialects: OPENAI,
    sites: typed((type) => type === 'response.completed'),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        type: 'response.failed',
        response: { ...(e['response'] as Json), status: 'failed', error: { code: 'server_error', message: 'boom' } },
      })),
  },
  {
    rule: 'provider.response-incomplete',
    name: 'response.incomplete instead of response.completed',
    dialects: OPENAI,
    sites: typed((type) => type === 'response.completed'),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        type: 'response.incomplete',
        response: {
          ...(e['response'] as Json),
          status: 'incomplete',
          incomplete_details: { reason: 'max_output_tokens' },
        },
      })),
  },
  {
    rule: 'provider.missing-terminal',
    name: 'terminal event dropped',
    dialects: PROVIDERS,
    sites: typed(isTerminal),
    apply: (events, site) => ({ parts: replaced(events, site), target: 'end' }),
  },
  {
    rule: 'provider.block-not-started',
    name: 'delta for a block never started',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) => withFields(events, site, (e) => ({ ...e, index: 99, output_index: 99 })),
  },
  {
    rule: 'provider.block-started-twice',
    name: 'block started again while open',
    dialects: PROVIDERS,
    sites: typed((type) => type === 'content_block_start' || type === 'response.output_item.added'),
    apply: (events, site) => insertedAfter(events, site, event(events[site] ?? '')),
  },
  {
    rule: 'provider.delta-after-stop',
    name: 'delta after its block or part was done',
    dialects: PROVIDERS,
    sites: typed((type) => type === 'content_block_stop' || type === 'response.output_text.done'),
    apply: (events, site) => {
      const e = parse(events[site] ?? '') ?? {};
      const delta =
        e['type'] === 'content_block_stop'
          ? { type: 'content_block_delta', index: e['index'], delta: { type: 'text_delta', text: 'late' } }
          : {
              type: 'response.output_text.delta',
              item_id: e['item_id'],
              output_index: e['output_index'],
              content_index: e['content_index'],
              delta: 'late',
              sequence_number: 0,
            };
      return insertedAfter(events, site, event(JSON.stringify(delta)));
    },
  },
  {
    rule: 'provider.block-not-stopped',
    name: 'stop event dropped',
    dialects: PROVIDERS,
    sites: typed((type) => type === 'content_block_stop' || type === 'response.output_item.done'),
    apply: (events, site) => ({
      parts: replaced(events, site),
      target: openerOf(events, site, (type) => type === 'content_block_start' || type === 'response.output_item.added'),
    }),
  },
  {
    rule: 'provider.next-message',
    name: 'a capture holding a second message after the first one ended',
    dialects: PROVIDERS,
    sites: (events) => (events.length > 0 ? [0] : []),
    apply: (events) => ({ parts: [...events.map(event), ...events.map(event)], target: events.length }),
  },
  {
    rule: 'provider.sequence-gap',
    name: 'event missing from the sequence',
    dialects: OPENAI,
    sites: typed(
      (type, e) => typeof e['sequence_number'] === 'number' && !isTerminal(type) && type !== 'response.created',
    ),
    apply: (events, site) => ({ parts: replaced(events, site), target: site }),
  },
  // A stray quote breaks JSON wherever it lands, inside a string or not. Anthropic tool input
  // comes only in deltas, checked at the block's stop; OpenAI's complete arguments come again
  // in the item's done event, which is what a client calls the tool with.
  {
    rule: 'provider.tool-args-invalid',
    name: 'tool input that does not parse',
    dialects: ANTHROPIC,
    sites: typed(
      (type, e) => type === 'content_block_delta' && (e['delta'] as Json | undefined)?.['type'] === 'input_json_delta',
    ),
    apply: (events, site) => {
      const stop = events.findIndex((d, i) => i > site && parse(d)?.['type'] === 'content_block_stop');
      const faulted = withFields(events, site, (e) => ({
        ...e,
        delta: { ...(e['delta'] as Json), partial_json: `${String((e['delta'] as Json)['partial_json'])}"}]` },
      }));
      return { ...faulted, target: stop, alternative: site };
    },
  },
  {
    rule: 'provider.tool-args-invalid',
    name: 'function call arguments that do not parse',
    dialects: OPENAI,
    sites: typed(
      (type, e) =>
        type === 'response.output_item.done' &&
        ['function_call', 'mcp_call'].includes(String((e['item'] as Json | undefined)?.['type'])),
    ),
    apply: (events, site) =>
      withFields(events, site, (e) => ({
        ...e,
        item: { ...(e['item'] as Json), arguments: `${String((e['item'] as Json)['arguments'])}"}]` },
      })),
  },
  // Offsets are checked once the text is complete, at its output_text.done.
  {
    rule: 'provider.annotation-out-of-range',
    name: 'annotation past the end of its text',
    dialects: OPENAI,
    sites: typed((type) => type === 'response.output_text.annotation.added'),
    apply: (events, site) => ({
      ...withFields(events, site, (e) => ({
        ...e,
        annotation: { ...(e['annotation'] as Json), start_index: 99_990, end_index: 99_999, index: 99_999 },
      })),
      alternative: events.findIndex((d, i) => i > site && parse(d)?.['type'] === 'response.output_text.done'),
    }),
  },
  {
    rule: 'provider.unknown-event',
    name: 'event type newer than the inspector',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) =>
      insertedBefore(
        events,
        site,
        event(
          JSON.stringify({
            type:
              parse(events[site] ?? '')?.['type'] === 'content_block_delta'
                ? 'content_block_flush'
                : 'response.future_event',
            sequence_number: site,
          }),
        ),
      ),
  },
  {
    rule: 'provider.invalid-event',
    name: 'event data that is not an object',
    dialects: PROVIDERS,
    sites: typed(isDelta),
    apply: (events, site) => insertedBefore(events, site, event('[1, 2]')),
  },
];
