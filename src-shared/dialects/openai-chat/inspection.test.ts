import { describe, expect, it } from 'vitest';
import { main } from '../../../src-main/cli/main';
import { memoryIo } from '../../../src-main/cli/test-io';
import { providerFixturePath } from '../../../src-main/testing/fixtures';
import { decodeProviderEvents } from '../../../src-main/testing/provider-streams';

/**
 * What the rest of the inspector does with a Chat Completions stream, as for any dialect: the
 * in-text stage reads the protocols the model wrote inside its text blocks, and the filter
 * language and `check` select and assert on its envelopes, findings and end status.
 */

const run = async (args: string[]): Promise<{ code: number; out: string }> => {
  const io = memoryIo();
  const code = await main(args, io);
  return { code, out: io.out() };
};
const chunk = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-i', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

describe('the in-text stage on Chat Completions text blocks', () => {
  it('reads the tool tags a model wrote across content deltas as segments', () => {
    const result = decodeProviderEvents([
      chunk('<thinking>Find it.</thi'),
      chunk('nking>\n<search><query>login'),
      chunk(' user</query></search>', 'stop'),
      'data: [DONE]\n\n',
    ]);
    const text = result.blocks.find((b) => b.kind === 'text');
    expect(text?.segments?.map((s) => [s.type, s.params['query'] ?? s.content])).toEqual([
      ['reasoning', 'Find it.'],
      ['tool_call', 'login user'],
    ]);
  });

  it('reports a protocol broken inside the text, as for any dialect', () => {
    const result = decodeProviderEvents([chunk('<search><query>never closed', 'stop'), 'data: [DONE]\n\n']);
    expect(result.diagnostics.map((d) => d.rule)).toContain('inline.unclosed');
  });
});

describe('the filter language and check on Chat Completions streams', () => {
  const tools = providerFixturePath('openai-chat/parallel-tools.sse');

  it('inspect --filter selects by dialect, type and name', async () => {
    const { code, out } = await run([
      'inspect',
      tools,
      '--json',
      '--filter',
      'dialect == "openai-chat" && type == "tool_call" && name == "get_weather"',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { formats: string[]; matches: { id: string; delta: string }[] };
    expect(report.formats).toEqual(['openai-chat']);
    expect(report.matches.map((m) => [m.id, m.delta])).toEqual([
      ['call_demo_paris', '{"location": "Paris"}'],
      ['call_demo_tokyo', '{"location": "Tokyo"}'],
    ]);
  });

  it('check passes on a clean stream and fails on a cut one, saying why', async () => {
    const clean = await run(['check', tools, '--expect', 'status == "paused"', '--expect', 'some type == "tool_call"']);
    expect(clean.code).toBe(0);
    const cut = await run(['check', providerFixturePath('openai-chat/cut.sse'), '--expect', 'status == "done"']);
    expect(cut.code).toBe(1);
    expect(cut.out).toMatch(/FAIL {2}status == "done" +status is truncated/);
    const finding = await run([
      'check',
      providerFixturePath('openai-chat/length.sse'),
      '--expect',
      'some finding.rule == "provider.response-incomplete"',
    ]);
    expect(finding.code).toBe(0);
  });
});
