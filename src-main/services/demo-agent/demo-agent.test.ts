import { describe, expect, test } from 'vitest';
import { SCENARIOS } from './scenarios/catalogue';
import { FORMATS } from './script';
import { startDemoAgent } from './server';
import { AGENT, demoEndpoints, envelopes, items, post, readAll, useDemoAgent, type Envelope } from './testing/http';

const demo = useDemoAgent();
const { run } = demoEndpoints(demo);

const metaInitOf = (item: string): Record<string, unknown> =>
  JSON.parse(
    item
      .replace(/^<meta_init data="(.*)"><\/meta_init>$/, '$1')
      .replaceAll('&quot;', '"')
      .replaceAll('&#x27;', "'")
      .replaceAll('&amp;', '&'),
  ) as Record<string, unknown>;

describe('endpoints', () => {
  test('GET /agent/scenarios lists every scenario and the default', async () => {
    const response = await fetch(`${demo.url}/agent/scenarios`);
    const listing = (await response.json()) as {
      default: string;
      formats: string[];
      scenarios: { id: string; title: string; demonstrates: object }[];
    };
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(listing.default).toBe('tour');
    expect(listing.formats).toEqual(['json', 'xml', 'raw']);
    expect(listing.scenarios.map((s) => s.id)).toEqual(SCENARIOS.map((s) => s.id));
    expect(listing.scenarios.find((s) => s.id === 'fault-raw-cr')?.demonstrates).toHaveProperty('xml', [
      'sse.ignored-line',
    ]);
  });

  test('unknown paths are 404 and wrong methods 405, with FastAPI bodies', async () => {
    const missing = await fetch(`${demo.url}/agent/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ detail: 'Not Found' });
    const wrong = await fetch(`${demo.url}/agent/run`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect(await wrong.json()).toEqual({ detail: 'Method Not Allowed' });
  });

  test('POST /agent/run streams text/event-stream with the router headers, json by default', async () => {
    const reply = await run({ user_prompt: 'Show me what an agent stream can carry.', agent_uuid: AGENT });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    expect(reply.headers.get('x-accel-buffering')).toBe('no');
    const list = items(reply.text);
    expect(list.at(-1)).toBe('[DONE]');
    expect(list.filter((i) => i === '[DONE]')).toHaveLength(1);
    const first = JSON.parse(list[0] ?? '') as Envelope;
    expect(Object.keys(first).slice(0, 4)).toEqual(['type', 'agent', 'final', 'delta']);
    expect(first).toMatchObject({ type: 'meta_init', agent: AGENT, final: true });
    expect(JSON.parse(first.delta)).toMatchObject({
      format: 'json',
      user_query: 'Show me what an agent stream can carry.',
      agent_uuid: AGENT,
      parent_agent_uuid: null,
      model: 'claude-sonnet-4-5',
    });
    // json.dumps(meta_init, ensure_ascii=False): spaced separators inside the delta.
    expect(first.delta.startsWith('{"format": "json", "user_query": ')).toBe(true);
  });

  test.each([
    ['body field', { format: 'xml' }, '', 'xml'],
    ['query', {}, '?format=raw', 'raw'],
    ['query over body', { format: 'xml' }, '?format=raw', 'raw'],
  ])('the format is chosen by %s', async (_how, extra, query, format) => {
    const reply = await run({ user_prompt: 'hello', ...extra }, query);
    const first = items(reply.text)[0] ?? '';
    expect(first.startsWith('<meta_init data="{&quot;format&quot;: &quot;')).toBe(true);
    expect(metaInitOf(first)['format']).toBe(format);
  });

  test('raw streams mix Anthropic events (JSON lines) with agent-layer XML items', async () => {
    const list = items((await run({ user_prompt: 'Render a chart of 12, 7 and 26.', format: 'raw' })).text);
    expect(list.filter((i) => i.startsWith('{')).map((i) => (JSON.parse(i) as { type: string }).type)).toContain(
      'message_start',
    );
    expect(
      list.some((i) => i.startsWith('<content-block-tool_result id="toolu_demo_chart" name="render_chart"><text>')),
    ).toBe(true);
  });

  test('a scenario is picked by a keyword of the prompt, or by the scenario field', async () => {
    const byKeyword = envelopes((await run({ user_prompt: 'Think it through: what is 17 × 24?' })).text);
    expect(byKeyword[1]?.type).toBe('thinking');
    const explicit = envelopes((await run({ user_prompt: 'anything', scenario: 'citations' })).text);
    expect(explicit.filter((e) => e.type === 'citation').map((e) => e['citation_type'])).toEqual([
      'char_location',
      'page_location',
      'web_search_result_location',
    ]);
  });

  test('every scenario sample prompt selects its scenario', async () => {
    const { selectScenario } = await import('./scenarios/catalogue');
    for (const scenario of SCENARIOS) expect(selectScenario(scenario.samplePrompt).id).toBe(scenario.id);
    expect(selectScenario([{ type: 'text', text: 'please use sub-agents' }]).id).toBe('subagents');
  });

  test('a list prompt (content blocks) is accepted; meta_init carries it as JSON with base64 stripped', async () => {
    const prompt = [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'A'.repeat(4096) } },
      { type: 'text', text: 'Describe this chart' },
    ];
    const first = envelopes((await run({ user_prompt: prompt })).text)[0];
    const meta = JSON.parse(first?.delta ?? '') as { user_query: string };
    expect(meta.user_query).toBe(
      '[{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "[base64, 3.0 KB]"}}, {"type": "text", "text": "Describe this chart"}]',
    );
  });
});

describe('error frames', () => {
  test.each(FORMATS)('a mid-stream API error ends with the router error frame and no [DONE] (%s)', async (format) => {
    const list = items((await run({ user_prompt: 'Trigger an API error half-way through the answer.', format })).text);
    const last = list.at(-1) ?? '';
    expect(list).not.toContain('[DONE]');
    // Plain json.dumps: spaced separators, ASCII only, no envelope fields.
    expect(
      last.startsWith(
        `{"error": "APIStatusError", "message": "{'type': 'error', 'error': {'details': None, 'type': 'overloaded_error', 'message': 'Overloaded'}}", "traceback": "Traceback (most recent call last):\\n`,
      ),
    ).toBe(true);
    expect(last).toMatch(/^[\x20-\x7e]*$/);
    expect(Object.keys(JSON.parse(last) as object)).toEqual(['error', 'message', 'traceback']);
  });

  test('the text block the error interrupted is never closed', async () => {
    const envs = envelopes((await run({ user_prompt: 'Trigger an API error', scenario: 'error-midstream' })).text);
    expect(envs.filter((e) => e.type === 'text').every((e) => !e.final)).toBe(true);
  });
});

describe('determinism', () => {
  test.each(FORMATS)('two servers with the same seed send byte-identical streams (%s)', async (format) => {
    const other = await startDemoAgent({ pace: 'fast' });
    const fresh = await startDemoAgent({ pace: 'fast' });
    try {
      for (const scenario of ['tour', 'subagents', 'large-payloads', 'files']) {
        const a = await post(other.url, '/agent/run', { user_prompt: 'x', scenario, format });
        const b = await post(fresh.url, '/agent/run', { user_prompt: 'x', scenario, format });
        expect(a.text).toBe(b.text);
      }
    } finally {
      await Promise.all([other.close(), fresh.close()]);
    }
  });

  test('agent UUIDs are seeded: new per run, the same sequence for the same seed, another for another seed', async () => {
    const uuidsOf = async (seed: string): Promise<string[]> => {
      const server = await startDemoAgent({ pace: 'fast', seed });
      try {
        const runs = [
          await post(server.url, '/agent/run', { user_prompt: 'hi' }),
          await post(server.url, '/agent/run', { user_prompt: 'hi' }),
        ];
        return runs.map((r) => envelopes(r.text)[0]?.agent ?? '');
      } finally {
        await server.close();
      }
    };
    const [first, again, other] = [await uuidsOf('a'), await uuidsOf('a'), await uuidsOf('b')];
    expect(first[0]).not.toBe(first[1]);
    expect(again).toEqual(first);
    expect(other[0]).not.toBe(first[0]);
    for (const uuid of first)
      expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

/** JSON envelope types the upstream passes through `_chunk_and_emit`; text, thinking and citations are never chunked. */
describe('pacing and lifecycle', () => {
  test('realistic pace waits before events with seeded jitter; fast never waits', async () => {
    const waitsOf = async (pace: 'fast' | 'realistic'): Promise<number[]> => {
      const waits: number[] = [];
      const server = await startDemoAgent({ pace, delay: (ms) => (waits.push(ms), Promise.resolve()) });
      try {
        await post(server.url, '/agent/run', { user_prompt: 'x', scenario: 'client-tools' });
        return waits;
      } finally {
        await server.close();
      }
    };
    const realistic = await waitsOf('realistic');
    expect(realistic.length).toBeGreaterThan(20);
    expect(realistic.every((ms) => ms > 0)).toBe(true);
    // Tool executions take longer than token deltas.
    expect(Math.max(...realistic)).toBeGreaterThanOrEqual(250);
    expect(await waitsOf('realistic')).toEqual(realistic);
    expect(await waitsOf('fast')).toEqual([]);
  });

  test('a request can ask for its own pace', async () => {
    const waits: number[] = [];
    const server = await startDemoAgent({ pace: 'fast', delay: (ms) => (waits.push(ms), Promise.resolve()) });
    try {
      await post(server.url, '/agent/run?pace=realistic', { user_prompt: 'x', scenario: 'thinking' });
      expect(waits.length).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });

  test('a client that disconnects mid-stream stops the run; close() ends open streams at once', async () => {
    const server = await startDemoAgent({
      pace: 'realistic',
      delay: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 20))),
    });
    const controller = new AbortController();
    const response = await fetch(`${server.url}/agent/run`, {
      method: 'POST',
      body: JSON.stringify({ user_prompt: 'x', scenario: 'tour' }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort();
    const open = await fetch(`${server.url}/agent/run`, {
      method: 'POST',
      body: JSON.stringify({ user_prompt: 'x', scenario: 'large-payloads' }),
    });
    const pending = readAll(open);
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await pending).error).not.toBeNull();
  });
});
