import { describe, expect, test } from 'vitest';
import { chunkingBudget } from '../../../src-shared/envelope/budget';
import { utf8ByteLength } from '../../../src-shared/text/utf8';
import { quarterlyReport } from './scenarios/failures';
import { SCENARIOS } from './scenarios/catalogue';
import { FORMATS, type Format } from './script';
import { AGENT, demoEndpoints, envelopes, items, payloads, readAll, useDemoAgent, type Envelope } from './testing/http';

const demo = useDemoAgent();
const { run } = demoEndpoints(demo);

/* What the scenarios put on the wire: the JSON chunking, the content scenarios, the faults. */

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
