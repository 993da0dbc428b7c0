import type { ServerResponse } from 'node:http';
import { isJsonObject } from '../../../../src-shared/json/values';
import type { Delay } from '../pacing';
import type { Pace } from '../request-validation';
import { seededRandom } from '../seeded';
import { SseResponse } from '../sse-response';
import type { ProviderApi } from './index';
import { providerSse, type ProviderEvent, type ProviderScenario } from './types';

/**
 * The scenario a provider request asks for: `scenario` (query or body, already validated),
 * else the first scenario whose id appears in the last user message, else the first one.
 */
export function chooseProviderScenario(
  api: ProviderApi,
  requested: string | undefined,
  body: unknown,
): ProviderScenario {
  const byId = (id: string | undefined): ProviderScenario | undefined => api.scenarios.find((s) => s.id === id);
  const prompt = lastUserText(body).toLowerCase();
  return (
    byId(requested) ??
    byId(api.choose?.(body)) ??
    api.scenarios.find((s) => prompt.includes(s.id)) ??
    (api.scenarios[0] as ProviderScenario)
  );
}

/** The text of the last user message (Anthropic `messages`, OpenAI `input` as a string or items, Gemini `contents`, AI SDK UI messages' `parts`). */
function lastUserText(body: unknown): string {
  if (!isJsonObject(body)) return '';
  const input = body['input'];
  if (typeof input === 'string') return input;
  const list = Array.isArray(body['messages'])
    ? body['messages']
    : Array.isArray(input)
      ? input
      : Array.isArray(body['contents'])
        ? body['contents']
        : [];
  for (let i = list.length - 1; i >= 0; i--) {
    const message: unknown = list[i];
    if (!isJsonObject(message) || message['role'] !== 'user') continue;
    const content = message['content'] ?? message['parts'];
    if (typeof content === 'string') return content;
    if (Array.isArray(content))
      return content
        .map((part: unknown) => (isJsonObject(part) && typeof part['text'] === 'string' ? part['text'] : ''))
        .join(' ');
  }
  return '';
}

/** How long the API takes before an event: the time to first token before the first content, tens of ms between deltas. */
function providerDelayMs(event: ProviderEvent, index: number, random: () => number): number {
  if (index === 0) return Math.round(150 + 150 * random());
  const type = event.event;
  if (type.endsWith('.delta') || type === 'content_block_delta') return Math.round(20 + 30 * random());
  if (
    type.includes('searching') ||
    type.includes('interpreting') ||
    type.includes('generating') ||
    type.endsWith('_tool_result')
  )
    return Math.round(300 + 300 * random());
  return Math.round(5 + 10 * random());
}

/**
 * Streams one scenario as the provider API would (its encoding and headers, or its alternate
 * wire when the query asks for that); a `cut` scenario drops the connection after its last
 * event instead of ending the body.
 */
export async function streamProviderScenario(
  api: ProviderApi,
  res: ServerResponse,
  scenario: ProviderScenario,
  request: { pace: Pace; query: URLSearchParams },
  delay: Delay,
  streams: Set<SseResponse>,
): Promise<void> {
  const { pace, query } = request;
  const alternate = api.alternateWire?.when(query) ? api.alternateWire : undefined;
  const encode = alternate?.encode ?? ((event: ProviderEvent) => (api.encode ?? providerSse)(event));
  const out = new SseResponse(res, alternate?.headers ?? api.headers);
  streams.add(out);
  try {
    const random = seededRandom(`provider:${scenario.id}`);
    for (const [index, event] of scenario.events.entries()) {
      if (out.isClosed) return;
      const wait = pace === 'realistic' ? providerDelayMs(event, index, random) : 0;
      if (wait > 0) await Promise.race([delay(wait), out.closed]);
      if (out.isClosed) return;
      await out.write(encode(event, index));
    }
    if (scenario.cut) out.drop();
    else {
      if (alternate) await out.write(alternate.close);
      out.end();
    }
  } finally {
    streams.delete(out);
  }
}
