import { describe, expect, it } from 'vitest';
import { fixturePath, providerFixturePath } from '../testing/fixtures';
import { runCli } from './test-io';

// Two choices of one Chat Completions response: agents chatcmpl-demo-n2 and chatcmpl-demo-n2#1.
const N_CHOICES = providerFixturePath('openai-chat/n-choices.sse');

describe('agent ids where inspect, blocks and diff name them', () => {
  it('are whole when they are not UUIDs, so that two agents of one prefix stay apart', async () => {
    const inspect = await runCli(['inspect', N_CHOICES]);
    expect(inspect.out).toContain('  #0    chatcmpl-demo-n2    text                     complete');
    expect(inspect.out).toContain('  #1    chatcmpl-demo-n2#1  text                     complete');
    const blocks = await runCli(['blocks', N_CHOICES]);
    expect(blocks.out).toContain('#0 chatcmpl-demo-n2 text complete: "Paris is the capital."');
    expect(blocks.out).toContain('#1 chatcmpl-demo-n2#1 text complete: "The capital is Paris."');
    const diff = await runCli([
      'diff',
      providerFixturePath('openai-chat/text.sse'),
      providerFixturePath('openai-chat/cut.sse'),
    ]);
    expect(diff.out).toContain('1. chatcmpl-demo-text ↔ chatcmpl-demo-cut  (structure)');
  });

  it('say a missing id as the Agents list does, in every command', async () => {
    const stream =
      'data: {"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';
    const inspect = await runCli(['inspect', '-'], { stdin: stream });
    expect(inspect.out).toContain('  (no agent id)  3 envelopes');
    expect(inspect.out).toMatch(/ {2}#0 {4}\(no agent id\) {2}text {21}complete/);
    expect((await runCli(['blocks', '-'], { stdin: stream })).out).toContain('#0 (no agent id) text complete: "hi"');
  });

  it('keep a UUID to its first 8 hex digits, the columns aligned', async () => {
    const inspect = await runCli(['inspect', fixturePath('json_stream.json.sse')]);
    expect(inspect.out).toMatch(/^ {2}#0 {4}11111111 {2}meta_init {16}complete/m);
    const blocks = await runCli(['blocks', fixturePath('json_stream.json.sse')]);
    expect(blocks.out).toMatch(/^#0 11111111 meta_init complete: /m);
  });
});
