import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeLegs } from '../../../src-shared/pipeline/session-decoder';
import { FIREHOSE_CYCLES } from './scenarios/firehose';
import { selectScenario } from './scenarios/catalogue';
import { startDemoAgent, type DemoAgent } from './server';
import { envelopes, items, post, readAll } from './testing/http';

/**
 * The firehose scenario through a real HTTP client: paced to its rate, complete and clean when
 * its duration is over, stopped by a disconnect, and bad pacing parameters refused with a 400
 * that says what is wrong.
 */

const AGENT = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f';

let demo: DemoAgent;
beforeAll(async () => {
  demo = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await demo.close();
});

const firehose = (body: Record<string, unknown>, query = ''): Promise<Response> =>
  fetch(`${demo.url}/agent/run${query}`, {
    method: 'POST',
    body: JSON.stringify({ user_prompt: 'x', scenario: 'firehose', agent_uuid: AGENT, ...body }),
  });

/** Reads the body, noting how many events had arrived at each chunk's arrival (ms since the request). */
async function timedEvents(
  response: Response,
  started: number,
): Promise<{ text: string; arrivals: [number, number][] }> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const arrivals: [number, number][] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    arrivals.push([performance.now() - started, text.split('\n\n').length - 1]);
  }
  return { text, arrivals };
}

describe('the firehose scenario', () => {
  test('holds its rate: never ahead of schedule, and not far behind it over a short run', async () => {
    const rate = 4_000;
    const started = performance.now();
    const { text, arrivals } = await timedEvents(await firehose({ rate, duration: 1 }), started);
    // Every event is due at (n - 1) / rate seconds after the first was written; none comes earlier.
    for (const [ms, count] of arrivals) expect(count).toBeLessThanOrEqual(Math.floor((ms * rate) / 1000) + 1 + 40);
    const list = envelopes(text);
    expect(list.length).toBeGreaterThanOrEqual(rate);
    const [lastMs] = arrivals.at(-1) ?? [0];
    // A loaded machine may lag, but the whole second's worth arrives within a few seconds.
    expect(lastMs).toBeGreaterThan(900);
    expect(lastMs).toBeLessThan(5_000);
  });

  test('streams three agents, interleaved, and ends like a complete run: every block closed, [DONE], no error', async () => {
    const response = await firehose({ rate: 50_000, duration: 0.2 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const { bytes } = await readAll(response);
    const text = new TextDecoder().decode(bytes);
    expect(items(text).at(-1)).toBe('[DONE]');
    const list = envelopes(text);
    // More than one pass over the cycles: the tool ids stay unique past the templates.
    const calls = list.filter((e) => e.type === 'tool_call').map((e) => String(e['id']));
    expect(calls.length).toBeGreaterThan(3 * FIREHOSE_CYCLES);
    expect(new Set(calls).size).toBe(calls.length);
    const agents = [...new Set(list.map((e) => e.agent))];
    expect(agents).toHaveLength(3);
    expect(agents[0]).toBe(AGENT);
    // Interleaved: the agents take turns within the first few dozen envelopes.
    expect(new Set(list.slice(3, 30).map((e) => e.agent)).size).toBe(3);
    expect(list.filter((e) => e.type === 'text' || e.type === 'thinking').length / list.length).toBeGreaterThan(0.8);

    const result = decodeLegs([[{ bytes }]]);
    expect(result.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.rule)).toEqual([]);
    expect(result.agents.map((a) => a.parent)).toEqual([null, AGENT, AGENT]);
    expect(result.blocks.every((b) => b.status === 'complete')).toBe(true);
    expect(result.ends[0]?.stream.terminal?.event).toBe('[DONE]');
    expect(result.blocks.at(-1)?.kind).toBe('meta_final');
  });

  test('duration 0 streams until the client disconnects, then the server stops writing', async () => {
    const controller = new AbortController();
    const response = await fetch(`${demo.url}/agent/run`, {
      method: 'POST',
      signal: controller.signal,
      body: JSON.stringify({ user_prompt: 'x', scenario: 'firehose', rate: 20_000, duration: 0 }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = 0;
    while (received < 200_000) received += (await reader.read()).value?.length ?? 0;
    expect(demo.openStreams).toBe(1);
    controller.abort();
    const deadline = Date.now() + 5_000;
    while (demo.openStreams > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(demo.openStreams).toBe(0);
  });

  test.each([
    [
      'a rate that is not a number',
      { rate: 'fast' },
      '',
      'rate must be a whole number of envelopes per second from 1 to 1000000, not "fast"',
    ],
    ['a rate of zero', { rate: 0 }, '', 'rate must be a whole number of envelopes per second from 1 to 1000000, not 0'],
    [
      'a fractional rate',
      { rate: 2.5 },
      '',
      'rate must be a whole number of envelopes per second from 1 to 1000000, not 2.5',
    ],
    [
      'a rate over the maximum',
      {},
      '?rate=5000000',
      'rate must be a whole number of envelopes per second from 1 to 1000000, not "5000000"',
    ],
    [
      'an empty rate in the query',
      {},
      '?rate=',
      'rate must be a whole number of envelopes per second from 1 to 1000000, not ""',
    ],
    [
      'a negative duration',
      { duration: -1 },
      '',
      'duration must be a number of seconds from 0 (until the client disconnects) to 86400, not -1',
    ],
    [
      'a duration that is not a number',
      {},
      '?duration=forever',
      'duration must be a number of seconds from 0 (until the client disconnects) to 86400, not "forever"',
    ],
    [
      'a duration as an object',
      { duration: { seconds: 3 } },
      '',
      'duration must be a number of seconds from 0 (until the client disconnects) to 86400, not {"seconds":3}',
    ],
    [
      'the xml format',
      { format: 'xml' },
      '',
      "the firehose scenario streams the json format only (its three agents interleave, and only json names each event's agent), not xml",
    ],
    [
      'a rate for another scenario',
      { scenario: 'tour', rate: 100 },
      '',
      'rate and duration pace the firehose scenario only; this request plays the "tour" scenario',
    ],
  ])('refuses %s with a 400 that says why', async (_what, body, query, detail) => {
    const response = await firehose(body, query);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ detail });
  });

  test('the query wins over the body, as for the other selectors', async () => {
    const reply = await post(demo.url, '/agent/run?rate=oops', { user_prompt: 'x', scenario: 'firehose', rate: 100 });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('not \\"oops\\"');
  });

  test('a prompt that says "firehose" selects it', () => {
    expect(selectScenario('Turn on the firehose please').id).toBe('firehose');
  });
});
