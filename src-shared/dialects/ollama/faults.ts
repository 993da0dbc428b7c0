import {
  at,
  event,
  indexes,
  insertedAfter,
  insertedBefore,
  parse,
  replaced,
  withFields,
  type FaultKind,
  type Json,
} from '../../testing/faults-kit';

/**
 * Faults of Ollama streams for the fault suite (src-shared/testing/faults.ts): each breaks one
 * rule the dialect reports at one line of a clean stream (the demo scenarios of
 * resources/fixtures/providers/ollama, one chunk per line), where the finding must point.
 * Nothing is broken at the first line: it is the one that names the stream's dialect.
 */

const OLLAMA = ['ollama'] as const;

/** The lines that end a response. */
const doneLines = (events: readonly string[]): number[] => indexes(events, (data) => parse(data)?.['done'] === true);
/** Every line but the first. */
const laterLines = (events: readonly string[]): number[] => indexes(events, (_, i) => i > 0);

/** A line of the stream's response saying `text`, in the shape of its endpoint (chat or generate). */
function textLine(events: readonly string[], text: string): string {
  const first = parse(events[0] ?? '') ?? {};
  const content: Json = 'response' in first ? { response: text } : { message: { role: 'assistant', content: text } };
  return event(JSON.stringify({ model: first['model'], created_at: first['created_at'], ...content, done: false }));
}

/** A chat line holding one tool call with these arguments. */
function toolLine(events: readonly string[], args: unknown): string {
  const first = parse(events[0] ?? '') ?? {};
  const message = {
    role: 'assistant',
    content: '',
    tool_calls: [{ function: { name: 'get_weather', arguments: args } }],
  };
  return event(JSON.stringify({ model: first['model'], created_at: first['created_at'], message, done: false }));
}

export const OLLAMA_FAULTS: FaultKind[] = [
  {
    rule: 'provider.missing-terminal',
    name: 'the done line dropped',
    dialects: OLLAMA,
    sites: doneLines,
    apply: (events, site) => ({ parts: replaced(events, site), target: 'end' }),
  },
  {
    rule: 'ollama.after-done',
    name: 'a line after the done line',
    dialects: OLLAMA,
    sites: doneLines,
    apply: (events, site) => insertedAfter(events, site, textLine(events, 'late')),
  },
  {
    rule: 'ollama.model-changed',
    name: 'a line naming another model',
    dialects: OLLAMA,
    sites: laterLines,
    apply: (events, site) => withFields(events, site, (line) => ({ ...line, model: 'another-model:7b' })),
  },
  {
    rule: 'provider.api-error',
    name: 'an error line instead of the rest',
    dialects: OLLAMA,
    sites: laterLines,
    apply: (events, site) => ({
      parts: [
        ...events.slice(0, site).map(event),
        event(JSON.stringify({ error: 'model runner has unexpectedly stopped' })),
      ],
      target: site,
    }),
  },
  {
    rule: 'provider.response-incomplete',
    name: 'done_reason length instead of stop',
    dialects: OLLAMA,
    sites: doneLines,
    apply: (events, site) => withFields(events, site, (line) => ({ ...line, done_reason: 'length' })),
  },
  {
    rule: 'provider.tool-args-invalid',
    name: 'tool call arguments that are a string, not an object',
    dialects: OLLAMA,
    sites: doneLines,
    apply: (events, site) => insertedBefore(events, site, toolLine(events, '{"city": "Paris"}')),
  },
  {
    rule: 'provider.invalid-event',
    name: 'a line that is no JSON',
    dialects: OLLAMA,
    sites: laterLines,
    apply: (events, site) => at(events, site, event('{"model":"llama3.2","message":{"content":"cut')),
  },
];
