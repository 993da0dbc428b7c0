import { describe, expect, test } from 'vitest';
import { chunkingBudget } from '../../../src-shared/envelope/budget';
import { utf8ByteLength } from '../../../src-shared/text/utf8';
import { quarterlyReport } from './scenarios/failures';
import { SCENARIOS } from './scenarios/catalogue';
import { FORMATS, type Format } from './script';
import { startDemoAgent } from './server';
import { envelopes, items, payloads, post, readAll, useDemoAgent, type Envelope } from './testing/http';

const AGENT = '0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a';

const demo = useDemoAgent();

const run = (body: Record<string, unknown>, query = ''): ReturnType<typeof post> =>
  post(demo.url, `/agent/run${query}`, body);
const answer = (body: Record<string, unknown>, query = ''): ReturnType<typeof post> =>
  post(demo.url, `/agent/tool_results${query}`, body);
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

describe('422 validation errors, as FastAPI writes them', () => {
  const detail = async (reply: Promise<{ status: number; text: string }>): Promise<unknown> => {
    const { status, text } = await reply;
    expect(status).toBe(422);
    return (JSON.parse(text) as { detail: unknown }).detail;
  };

  test('missing user_prompt reports the whole body as input', async () => {
    expect(await detail(run({ agent_uuid: 'x' }))).toEqual([
      { type: 'missing', loc: ['body', 'user_prompt'], msg: 'Field required', input: { agent_uuid: 'x' } },
    ]);
  });

  test('a body nested 20,000 deep is echoed in the 422, not a 500', async () => {
    const depth = 20_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const [issue] = (await detail(post(demo.url, '/agent/run', `{"agent_uuid": ${nested}}`, { raw: true }))) as {
      loc: unknown;
      input: { agent_uuid: unknown };
    }[];
    expect(issue?.loc).toEqual(['body', 'user_prompt']);
    let level: unknown = issue?.input.agent_uuid;
    let seen = 0;
    while (Array.isArray(level) && level.length > 0) {
      level = (level as unknown[])[0];
      seen += 1;
    }
    expect(seen).toBe(depth - 1);
  });

  test('an empty body is a missing body', async () => {
    expect(await detail(post(demo.url, '/agent/run', '', { raw: true }))).toEqual([
      { type: 'missing', loc: ['body'], msg: 'Field required', input: null },
    ]);
  });

  test('invalid JSON is json_invalid at the error position', async () => {
    expect(await detail(post(demo.url, '/agent/run', '{"user_prompt": }', { raw: true }))).toEqual([
      {
        type: 'json_invalid',
        loc: ['body', 16],
        msg: 'JSON decode error',
        input: {},
        ctx: { error: 'Expecting value' },
      },
    ]);
  });

  test('a body that is not an object', async () => {
    expect(await detail(post(demo.url, '/agent/run', '[]', { raw: true }))).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [],
      },
    ]);
  });

  test('a user_prompt of the wrong type fails every member of the union', async () => {
    expect(await detail(run({ user_prompt: 5 }))).toEqual([
      { type: 'string_type', loc: ['body', 'user_prompt', 'str'], msg: 'Input should be a valid string', input: 5 },
      {
        type: 'list_type',
        loc: ['body', 'user_prompt', 'list[dict[any,any]]'],
        msg: 'Input should be a valid list',
        input: 5,
      },
      {
        type: 'dict_type',
        loc: ['body', 'user_prompt', 'dict[any,any]'],
        msg: 'Input should be a valid dictionary',
        input: 5,
      },
    ]);
  });

  test('agent_uuid must be a string and agent_type one of the router literals', async () => {
    const expected =
      "'agent_no_tools', 'agent_client_tools', 'agent_frontend_tools', 'agent_all_json', 'agent_skills' or 'agent_subagents'";
    expect(await detail(run({ user_prompt: 'hi', agent_uuid: 7, agent_type: 'agent_cowork' }))).toEqual([
      { type: 'string_type', loc: ['body', 'agent_uuid'], msg: 'Input should be a valid string', input: 7 },
      {
        type: 'literal_error',
        loc: ['body', 'agent_type'],
        msg: `Input should be ${expected}`,
        input: 'agent_cowork',
        ctx: { expected },
      },
    ]);
  });

  test('the demo selectors are validated too (query and body)', async () => {
    expect(await detail(run({ user_prompt: 'hi', pace: 'slow' }, '?format=yaml'))).toEqual([
      {
        type: 'literal_error',
        loc: ['query', 'format'],
        msg: "Input should be 'json', 'xml' or 'raw'",
        input: 'yaml',
        ctx: { expected: "'json', 'xml' or 'raw'" },
      },
      {
        type: 'literal_error',
        loc: ['body', 'pace'],
        msg: "Input should be 'fast' or 'realistic'",
        input: 'slow',
        ctx: { expected: "'fast' or 'realistic'" },
      },
    ]);
    const unknown = (await detail(run({ user_prompt: 'hi', scenario: 'nope' }))) as { type: string; loc: unknown[] }[];
    expect(unknown[0]).toMatchObject({ type: 'literal_error', loc: ['body', 'scenario'] });
  });

  test('tool_results: required fields, string content, boolean is_error', async () => {
    expect(await detail(answer({}))).toEqual([
      { type: 'missing', loc: ['body', 'agent_uuid'], msg: 'Field required', input: {} },
      { type: 'missing', loc: ['body', 'tool_results'], msg: 'Field required', input: {} },
    ]);
    expect(
      await detail(
        answer({
          agent_uuid: AGENT,
          tool_results: [{ tool_use_id: 't', content: { ok: true }, is_error: 'maybe' }, 3],
        }),
      ),
    ).toEqual([
      {
        type: 'string_type',
        loc: ['body', 'tool_results', 0, 'content'],
        msg: 'Input should be a valid string',
        input: { ok: true },
      },
      {
        type: 'bool_parsing',
        loc: ['body', 'tool_results', 0, 'is_error'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
      {
        type: 'model_attributes_type',
        loc: ['body', 'tool_results', 1],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 3,
      },
    ]);
    expect(await detail(answer({ agent_uuid: AGENT, tool_results: 'yes' }))).toEqual([
      { type: 'list_type', loc: ['body', 'tool_results'], msg: 'Input should be a valid list', input: 'yes' },
    ]);
  });
});

/** The continuation's items decoded to what matters, per format. */
function continuationSummary(
  text: string,
  format: Format,
): { first: string; hasMetaInit: boolean; hasMetaFinal: boolean; text: string } {
  const list = items(text);
  const joined = list.join('\n');
  if (format === 'json') {
    const envs = envelopes(text);
    return {
      first: `${envs[0]?.type ?? ''}:${envs[0]?.delta ?? ''}`,
      hasMetaInit: envs.some((e) => e.type === 'meta_init'),
      hasMetaFinal: envs.some((e) => e.type === 'meta_final'),
      text: envs
        .filter((e) => e.type === 'text')
        .map((e) => e.delta)
        .join(''),
    };
  }
  const deltas =
    format === 'xml'
      ? list.filter((i) => !i.startsWith('<') && i !== '[DONE]')
      : list
          .filter((i) => i.includes('"text_delta"'))
          .map((i) => (JSON.parse(i) as { delta: { text: string } }).delta.text);
  const first = list[0]?.startsWith('<content-block-tool_result id="toolu_demo_confirm" name="user_confirm"><![CDATA[')
    ? `tool_result:${/CDATA\[(.*)\]\]>/.exec(list[0])?.[1] ?? ''}`
    : (list[0] ?? '');
  return {
    first,
    hasMetaInit: joined.includes('<meta_init'),
    hasMetaFinal: joined.includes('<meta_final'),
    text: deltas.join(''),
  };
}

describe.each(FORMATS)('frontend tool pause and resume (%s)', (format) => {
  const uuid = `f0f0f0f0-0000-4000-8000-00000000000${FORMATS.indexOf(format)}`;
  const pause = (): ReturnType<typeof post> =>
    run({ user_prompt: 'What is 12 * 7? Confirm with me before saving the report.', agent_uuid: uuid, format });
  const reply = (
    content: string,
    id = 'toolu_demo_confirm',
    extra: Record<string, unknown> = {},
  ): ReturnType<typeof post> =>
    answer({
      agent_uuid: uuid,
      tool_results: [{ tool_use_id: id, content, ...extra }],
      agent_type: 'agent_frontend_tools',
    });

  test('the run pauses: awaiting_frontend_tools, then [DONE], no meta_final', async () => {
    const list = items((await pause()).text);
    expect(list.at(-1)).toBe('[DONE]');
    const awaiting = list.at(-2) ?? '';
    if (format === 'json') {
      expect(JSON.parse(awaiting)).toMatchObject({
        type: 'awaiting_frontend_tools',
        final: true,
        delta:
          '[{"tool_use_id": "toolu_demo_confirm", "name": "user_confirm", "input": {"message": "The product is 84. Save the report?"}}]',
      });
    } else {
      expect(awaiting).toBe(
        '<awaiting_frontend_tools data="[{&quot;tool_use_id&quot;: &quot;toolu_demo_confirm&quot;, &quot;name&quot;: &quot;user_confirm&quot;, &quot;input&quot;: {&quot;message&quot;: &quot;The product is 84. Save the report?&quot;}}]"></awaiting_frontend_tools>',
      );
    }
    expect(list.join('\n')).not.toContain('meta_final');
  });

  test('"yes" resumes: tool_result for the answer, the answer text, meta_final, [DONE]; no meta_init', async () => {
    await pause();
    const resumed = await reply('yes');
    expect(resumed.status).toBe(200);
    expect(items(resumed.text).at(-1)).toBe('[DONE]');
    const summary = continuationSummary(resumed.text, format);
    expect(summary).toEqual({
      first: 'tool_result:yes',
      hasMetaInit: false,
      hasMetaFinal: true,
      text: 'Confirmed — the report is saved. 12 × 7 = 84.',
    });
  });

  test('"no" gives the other answer; an unclear answer pauses again with a new tool id', async () => {
    await pause();
    expect(continuationSummary((await reply('no')).text, format).text).toBe(
      'Understood — I did not save the report. 12 × 7 = 84.',
    );
    await pause();
    const unclear = items((await reply('perhaps')).text);
    expect(unclear.at(-1)).toBe('[DONE]');
    expect(unclear.at(-2)).toContain('toolu_demo_confirm_2');
    expect(continuationSummary((await reply('yes', 'toolu_demo_confirm_2')).text, format).text).toContain('Confirmed');
  });

  test('mismatched ids end in the legacy error frame and keep the pause; a second resume is refused', async () => {
    await pause();
    const mismatch = items((await reply('yes', 'toolu_wrong')).text);
    expect(mismatch).toHaveLength(1);
    const frame = JSON.parse(mismatch[0] ?? '') as { error: string; message: string; traceback: string };
    expect(frame.error).toBe('ValueError');
    expect(frame.message).toBe(
      "Tool result mismatch. Expected tool_use_ids: {'toolu_demo_confirm'}, got: {'toolu_wrong'}",
    );
    expect(mismatch[0]?.startsWith('{"error": "ValueError", "message": ')).toBe(true);
    expect(frame.traceback).toMatch(/^Traceback \(most recent call last\):\n[\s\S]*ValueError: Tool result mismatch/);

    expect(items((await reply('yes')).text).at(-1)).toBe('[DONE]');
    const again = items((await reply('yes')).text);
    expect(again).toHaveLength(1);
    expect(JSON.parse(again[0] ?? '')).toMatchObject({
      error: 'ValueError',
      message: 'Agent is not awaiting frontend tools',
    });
  });

  test('an error result is answered as a failure of the dialog', async () => {
    await pause();
    expect(
      continuationSummary((await reply('dialog closed', 'toolu_demo_confirm', { is_error: true })).text, format).text,
    ).toBe('The confirmation dialog failed (“dialog closed”), so I did not save the report. 12 × 7 = 84.');
  });
});

test('the continuation uses the paused run’s format unless the request names one', async () => {
  const uuid = 'f1f1f1f1-0000-4000-8000-000000000001';
  await run({ user_prompt: 'Confirm with me', agent_uuid: uuid, format: 'xml' });
  const resumed = items(
    (await answer({ agent_uuid: uuid, tool_results: [{ tool_use_id: 'toolu_demo_confirm', content: 'yes' }] })).text,
  );
  expect(resumed[0]?.startsWith('<content-block-tool_result')).toBe(true);
  await run({ user_prompt: 'Confirm with me', agent_uuid: uuid, format: 'xml' });
  const asJson = envelopes(
    (
      await answer(
        { agent_uuid: uuid, tool_results: [{ tool_use_id: 'toolu_demo_confirm', content: 'yes' }] },
        '?format=json',
      )
    ).text,
  );
  expect(asJson[0]).toMatchObject({
    type: 'tool_result',
    agent: uuid,
    id: 'toolu_demo_confirm',
    name: 'user_confirm',
    delta: 'yes',
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
const BUFFERED = new Set([
  'meta_init',
  'tool_call',
  'server_tool_call',
  'server_tool_result',
  'tool_result',
  'tool_result_image',
  'awaiting_frontend_tools',
  'meta_files',
  'meta_final',
]);

function budgetOf(e: Envelope): number {
  const { type, agent, final: _final, delta: _delta, ...extras } = e;
  return chunkingBudget({ type, agent, extras }).maxDeltaBytes;
}

describe('JSON chunking follows the seed algorithm', () => {
  test('every buffered envelope of every clean scenario keeps its unescaped delta within the budget', async () => {
    // The firehose runs for its duration; firehose.test.ts checks its stream.
    for (const scenario of SCENARIOS.filter((s) => !s.id.startsWith('fault-') && s.id !== 'firehose')) {
      const envs = envelopes((await run({ user_prompt: 'x', scenario: scenario.id })).text);
      for (const e of envs.filter((x) => BUFFERED.has(x.type)))
        expect(utf8ByteLength(e.delta), `${scenario.id} ${e.type}`).toBeLessThanOrEqual(budgetOf(e));
    }
  });

  test('the large payloads are split into maximal UTF-8-safe chunks that reassemble exactly', async () => {
    const envs = envelopes((await run({ user_prompt: 'x', scenario: 'large-payloads' })).text);
    const reportChunks = envs.filter((e) => e.type === 'tool_result' && e['id'] === 'toolu_demo_fetch');
    expect(reportChunks.length).toBeGreaterThan(4);
    expect(reportChunks.map((e) => e.final)).toEqual([...reportChunks.slice(1).map(() => false), true]);
    expect(reportChunks.map((e) => e.delta).join('')).toBe(quarterlyReport());
    expect(utf8ByteLength(quarterlyReport())).toBeGreaterThan(10_000);

    let backedUp = 0;
    for (const type of ['tool_result', 'tool_call', 'meta_final']) {
      const chunks = envs.filter((e) => e.type === type);
      chunks.forEach((e, i) => {
        const next = chunks[i + 1];
        if (e.final || !next) return;
        const max = budgetOf(e);
        const bytes = utf8ByteLength(e.delta);
        // Maximal: the next character would not have fitted.
        expect(bytes + utf8ByteLength(Array.from(next.delta)[0] ?? '')).toBeGreaterThan(max);
        if (bytes < max) backedUp++;
      });
    }
    // Some cuts landed inside a multi-byte character and backed up to its start.
    expect(backedUp).toBeGreaterThan(0);

    expect(envs.filter((e) => e.type === 'tool_call' && e['id'] === 'toolu_demo_write').length).toBeGreaterThan(1);
    const metaFinal = envs.filter((e) => e.type === 'meta_final');
    expect(metaFinal.length).toBeGreaterThan(3);
    const summary = JSON.parse(payloads(envs, 'meta_final')[0] ?? '') as {
      conversation_history: unknown[];
      stop_reason: string;
      total_steps: number;
    };
    expect(summary).toMatchObject({ stop_reason: 'end_turn', total_steps: 3 });
    expect(summary.conversation_history).toHaveLength(6);
  });
});

describe('content scenarios', () => {
  test('two sub-agents stream concurrently: interleaved deltas, parent links, spawn results', async () => {
    const envs = envelopes((await run({ user_prompt: 'x', scenario: 'subagents', agent_uuid: AGENT })).text);
    const inits = envs
      .filter((e) => e.type === 'meta_init')
      .map((e) => JSON.parse(e.delta) as { agent_uuid: string; parent_agent_uuid: string | null });
    expect(inits).toHaveLength(3);
    const children = inits.slice(1).map((m) => m.agent_uuid);
    expect(inits.slice(1).map((m) => m.parent_agent_uuid)).toEqual([AGENT, AGENT]);
    const streamed = envs
      .filter((e) => (e.type === 'text' || e.type === 'thinking') && children.includes(e.agent))
      .map((e) => e.agent);
    const switches = streamed.filter((agent, i) => i > 0 && agent !== streamed[i - 1]).length;
    expect(switches).toBeGreaterThan(10);
    const spawnResults = envs.filter((e) => e.type === 'tool_result' && e.agent === AGENT);
    expect(spawnResults.map((e) => e['id'])).toEqual(['toolu_demo_spawn_calc', 'toolu_demo_spawn_research']);
    expect(spawnResults[0]?.delta).toMatch(
      /^\[Subagent 'calculator' completed\]\nAgent UUID: [0-9a-f-]{36}\n\n330 m ≈ 1,082\.7 ft\.\n\n\[stop_reason=end_turn, steps=2\]$/,
    );
    // Sub-agents have no meta_final; the parent's comes last.
    expect(envs.filter((e) => e.type === 'meta_final').map((e) => e.agent)).toEqual([AGENT]);
  });

  test('the multimodal result carries a real PNG as a data: URI', async () => {
    const envs = envelopes((await run({ user_prompt: 'x', scenario: 'multimodal' })).text);
    const sequence = envs.filter((e) => e.type.startsWith('tool_result')).map((e) => `${e.type}:${String(e.final)}`);
    expect(sequence).toEqual(['tool_result:false', 'tool_result_image:false', 'tool_result:true']);
    const image = envs.find((e) => e.type === 'tool_result_image');
    expect(image?.['media_type']).toBe('image/png');
    const png = Buffer.from(String(image?.['src']).replace('data:image/png;base64,', ''), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  });

  test('files: meta_files before meta_final, the file listed in generated_files', async () => {
    const envs = envelopes((await run({ user_prompt: 'x', scenario: 'files' })).text);
    const types = envs.map((e) => e.type);
    expect(types.indexOf('meta_files')).toBe(types.indexOf('meta_final') - 1);
    const files = (
      JSON.parse(payloads(envs, 'meta_files')[0] ?? '') as { files: { file_id: string; filename: string }[] }
    ).files;
    expect(files).toEqual([
      {
        file_id: 'file_011CDemoReport00000001',
        filename: 'file_file_011CDemoReport00000001',
        first_seen_step: 0,
        created_at: '2026-03-01T12:00:00',
        last_seen_step: 0,
        updated_at: '2026-03-01T12:00:00',
      },
    ]);
  });

  test('server tool results are Python reprs, as the upstream prints SDK objects', async () => {
    const envs = envelopes((await run({ user_prompt: 'x', scenario: 'server-tools' })).text);
    const results = envs.filter((e) => e.type === 'server_tool_result');
    expect(results.map((e) => e['name'])).toEqual(['web_search_tool_result', 'bash_code_execution_tool_result']);
    expect(JSON.parse(results[1]?.delta ?? '')).toBe(
      "BetaBashCodeExecutionResultBlock(content=[], return_code=0, stderr='', stdout='v22.11.0\\nok\\n', type='bash_code_execution_result')",
    );
  });
});

describe('fault scenarios produce their faults on the wire', () => {
  const body = async (scenario: string, format: Format): Promise<string> =>
    (await run({ user_prompt: 'x', scenario, format })).text;
  /** The body as far as it arrived, and how it ended (null: cleanly). */
  const partialBody = async (scenario: string, format: Format): Promise<{ text: string; error: unknown }> => {
    const response = await fetch(`${demo.url}/agent/run`, {
      method: 'POST',
      body: JSON.stringify({ user_prompt: 'x', scenario, format }),
    });
    const { bytes, error } = await readAll(response);
    return { text: new TextDecoder().decode(bytes), error };
  };
  const events = (text: string): string[] => text.split('\n\n');

  test.each(FORMATS)(
    'raw newline: an event holds a line that is not a data: field, and one holds a blank line (%s)',
    async (format) => {
      const text = await body('fault-raw-newline', format);
      expect(events(text).some((e) => e.split('\n').some((line, i) => i > 0 && !line.startsWith('data:')))).toBe(true);
      expect(text).toContain('A paragraph\n\nand the next paragraph');
    },
  );

  test.each(FORMATS)('raw CR: a CR ends a data: line inside a payload (%s)', async (format) => {
    const text = await body('fault-raw-cr', format);
    expect(text).toContain(format === 'xml' ? 'First line\r\\nsecond line' : 'First line\r\\nsecond line');
  });

  test.each(FORMATS)('oversize line: one data: line over 5 KB (%s)', async (format) => {
    const lines = (await body('fault-oversize-line', format)).split('\n');
    expect(Math.max(...lines.map((l) => utf8ByteLength(l)))).toBeGreaterThan(5 * 1024);
  });

  test.each([
    ['json', "data: {'type': 'tool_call', 'agent': "],
    ['raw', "data: {'delta': {'partial_json': '{\"a\": 12, \"b\": 7}', 'type': 'input_json_delta'}"],
    ['xml', 'arguments="{&#x27;a&#x27;: 12, &#x27;b&#x27;: 7}"'],
  ] as const)('malformed JSON: a Python repr where JSON belongs (%s)', async (format, marker) => {
    expect(await body('fault-malformed-json', format)).toContain(marker);
  });

  test.each(FORMATS)('truncated: the body ends mid-event, cleanly, without [DONE] (%s)', async (format) => {
    const { text, error } = await partialBody('fault-truncated', format);
    expect(error).toBeNull();
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text).not.toContain('[DONE]');
    expect(text.slice(text.lastIndexOf('\n\n') + 2).startsWith('data: ')).toBe(true);
  });

  test.each(FORMATS)('connection dropped: half an event arrives, then the body fails (%s)', async (format) => {
    const { text, error } = await partialBody('fault-connection-drop', format);
    expect(error).not.toBeNull();
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text.slice(text.lastIndexOf('\n\n') + 2).startsWith('data: ')).toBe(true);
  });

  test('retry replay: the partial block restarts from its first delta before any final marker', async () => {
    const texts = envelopes(await body('fault-retry-replay', 'json')).filter((e) => e.type === 'text');
    const firstFinal = texts.findIndex((e) => e.final);
    const first = texts[0]?.delta;
    expect(texts.slice(0, firstFinal).filter((e) => e.delta === first)).toHaveLength(2);
  });

  test.each(FORMATS)('after [DONE]: more events and a second [DONE] (%s)', async (format) => {
    const list = items(await body('fault-after-done', format));
    const done = list.indexOf('[DONE]');
    expect(done).toBeGreaterThan(0);
    expect(list.lastIndexOf('[DONE]')).toBe(list.length - 1);
    expect(list.length - 1).toBeGreaterThan(done + 1);
  });

  test.each([
    ['json', '"type":"progress_note"'],
    ['xml', 'data: <content-block-todo><![CDATA[{"todos": ['],
    ['raw', 'data: {"type":"message_annotation"'],
  ] as const)('unknown type (%s)', async (format, marker) => {
    expect(await body('fault-unknown-type', format)).toContain(marker);
  });

  test('bad XML: an unknown entity and stray or wrong closing tags in xml and raw; json stays clean', async () => {
    const xml = items(await body('fault-bad-xml', 'xml'));
    expect(xml.some((i) => i.includes('name="fish &chips;"'))).toBe(true);
    expect(
      xml.some((i) => i.endsWith('</content-block-tool_call>') && i.startsWith('<content-block-tool_result')),
    ).toBe(true);
    const stray = xml.lastIndexOf('</content-block-thinking>');
    expect(xml[stray - 1]).toBe('</content-block-thinking>');
    const raw = await body('fault-bad-xml', 'raw');
    expect(raw).toContain('&chips;');
    expect(raw).toContain('<![CDATA[No such dish]]></content-block-tool_call>');
    const json = await body('fault-bad-xml', 'json');
    expect(json).not.toContain('&chips;');
    expect(
      envelopes(json)
        .filter((e) => e.type === 'tool_result')
        .map((e) => e.delta),
    ).toEqual(['Fish & chips: 12 €', 'No such dish']);
  });
});

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
