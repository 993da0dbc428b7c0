import { describe, expect, it } from 'vitest';
import { providerFixturePath } from '../testing/fixtures';
import { main } from './main';
import { memoryIo } from './test-io';

async function run(args: string[]): Promise<{ code: number; out: string }> {
  const io = memoryIo();
  const code = await main(args, io);
  return { code, out: io.out() };
}

describe('the CLI on provider API streams', () => {
  it('inspect --json names the dialect, counts unified events, sums up each message and gates on the API error', async () => {
    const { code, out } = await run([
      'inspect',
      providerFixturePath('anthropic-messages/error-midstream.sse'),
      '--json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as {
      formats: string[];
      unifiedEvents: Record<string, number>;
      messages: Record<string, unknown>[];
      diagnostics: { rule: string; severity: string }[];
    };
    expect(report.formats).toEqual(['anthropic-messages']);
    expect(report.unifiedEvents).toMatchObject({
      'stream.message_start': 1,
      'stream.content_block_delta': 1,
      'stream.error': 1,
    });
    expect(report.messages).toEqual([expect.objectContaining({ id: 'msg_demo_err', status: 'failed' })]);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({ rule: 'provider.api-error', severity: 'error' }),
    );
  });

  it('inspect exits 0 on a clean OpenAI stream and names it', async () => {
    const { code, out } = await run([
      'inspect',
      providerFixturePath('openai-responses/text-annotations.sse'),
      '--json',
    ]);
    expect(code).toBe(0);
    expect((JSON.parse(out) as { formats: string[] }).formats).toEqual(['openai-responses']);
  });

  it('inspect sums up an MCP exchange, which names no model, without an empty field', async () => {
    const { code, out } = await run(['inspect', providerFixturePath('json-rpc/mcp-tools-call.sse')]);
    expect(code).toBe(0);
    expect(out).toContain('\nMessage "1 · completed · stop result"\n');
  });

  it("inspect says a stop reason that is the word itself once ('stop', not 'stop stop'), and names any other after it", async () => {
    const aiSdk = await run(['inspect', providerFixturePath('ai-sdk-ui/reasoning.sse')]);
    expect(aiSdk.out).toContain('\nMessage "msg-reasoning · demo-model · completed · stop · 20 in / 31 out tokens"\n');
    const anthropic = await run(['inspect', providerFixturePath('anthropic-messages/text-citations.sse')]);
    expect(anthropic.out).toContain(' · completed · stop end_turn · ');
  });

  it('blocks --json: full text content with citations, and the unified event each block opened with', async () => {
    const { out } = await run(['blocks', providerFixturePath('openai-responses/text-annotations.sse'), '--json']);
    const blocks = JSON.parse(out) as {
      kind: string;
      content: string;
      citations: unknown[];
      unified?: { family: string; ids: Record<string, unknown> };
    }[];
    const text = blocks.find((b) => b.kind === 'text');
    expect(text?.content).toBe('Paris is the capital of France. See the atlas.');
    expect(text?.citations).toHaveLength(4);
    expect(text?.unified).toMatchObject({
      family: 'stream.content_block_start',
      ids: { response_id: 'resp_demo_text', item_id: 'msg_demo_text' },
    });
  });
});
