import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../services/demo-agent/index';
import { providerFixturePath } from '../../testing/fixtures';
import { main } from '../main';
import { memoryIo } from '../test-io';

/**
 * `answer` on provider runs that wait for something else than a result: a tool call's approval
 * (the AI SDK's tool approvals: the demo agent's /api/chat recorded paused, then approved or
 * denied from the command line), and a turn Anthropic paused (pause_turn), continued; and a
 * stream that is not paused, which has nothing to answer.
 */

let dir: string;
let agent: DemoAgent;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inspector-cli-approval-'));
  agent = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await agent.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const io = { ...memoryIo(), cwd: dir };
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

async function record(url: string, body: unknown, name: string): Promise<string> {
  const { code, err } = await run(['record', url, '-d', JSON.stringify(body), '-o', name]);
  expect(err).toMatch(/paused on awaiting_frontend_tools/);
  expect(code).toBe(0);
  return join(dir, name);
}

async function recordPaused(name: string): Promise<string> {
  const chat = {
    id: 'chat-1',
    scenario: 'tool-approval',
    messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete notes.txt' }] }],
  };
  return record(`${agent.url}/api/chat`, chat, name);
}

describe('stream-inspector answer: a call that waits for its approval', () => {
  it('is listed as waiting for its approval, and a result for it is refused', async () => {
    const file = await recordPaused('listed.ndjson');
    const listing = await run(['answer', file]);
    expect(listing.code).toBe(1);
    expect(listing.out).toMatch(/call_delete {2}delete_file {2}\{"path":"notes.txt"\} {2}\(waits for its approval\)/);
    expect(listing.out).toMatch(/--approve or --deny TOOL_USE_ID\[=REASON\]/);
    const refused = await run(['answer', file, '--result', 'call_delete=ok']);
    expect(refused.err).toMatch(/delete_file \(call_delete\) waits for an approval \(approve or deny\), not a result/);
    expect(refused.code).not.toBe(0);
  });

  it.each([
    [['--deny', 'call_delete=keep it'], 'Understood — "notes.txt" stays.'],
    [['--approve', 'call_delete'], 'Done — "notes.txt" is deleted.'],
    [['--yes'], 'Done — "notes.txt" is deleted.'],
  ])('%j: the continuation follows, as the server answers the approval', async (options, said) => {
    const file = await recordPaused(`paused-${options.join('')}.ndjson`);
    const { code, err } = await run(['answer', file, ...options]);
    expect(err).toContain(`Continuation (leg 1): ${said}`);
    expect(code).toBe(0);
  });

  it('explains a malformed --approve', async () => {
    expect((await run(['answer', 'x.ndjson', '--approve', '=why'])).err).toMatch(
      /--approve takes TOOL_USE_ID or TOOL_USE_ID=REASON, not '=why'/,
    );
  });
});

describe('stream-inspector answer: a turn Anthropic paused (pause_turn)', () => {
  it('says the turn waits to be continued, and --yes continues it with the message as it streamed', async () => {
    const request = { model: 'claude-sonnet-4-5', stream: true, scenario: 'server-tools', messages: [] };
    const file = await record(`${agent.url}/v1/messages`, request, 'pause-turn.ndjson');
    const listing = await run(['answer', file]);
    expect(listing.out).toMatch(
      /The model paused its turn \(pause_turn, message msg_demo_server\); continue it with --yes/,
    );
    expect(listing.code).toBe(1);
    const { code, err } = await run(['answer', file, '--yes']);
    expect(err).toContain('Continuation (leg 1): Tomorrow: rain, 16 °C.');
    expect(code).toBe(0);
  });
});

describe('stream-inspector answer: a computer call (OpenAI Responses)', () => {
  it('is listed with the screenshot it takes, a text answer is refused, a screenshot continues the run', async () => {
    const request = {
      model: 'computer-use-preview',
      stream: true,
      scenario: 'computer-use',
      input: 'Open the forecast',
    };
    const file = await record(`${agent.url}/v1/responses`, request, 'computer.ndjson');
    const listing = await run(['answer', file]);
    expect(listing.out).toMatch(/call_demo_computer {2}computer {2}.*\(answered with a screenshot: its URL \(https:/);
    expect(listing.code).toBe(1);
    const refused = await run(['answer', file, '--result', 'call_demo_computer=clicked it']);
    expect(refused.err).toMatch(/Computer call call_demo_computer is answered with a screenshot/);
    expect(refused.code).not.toBe(0);
    const { code, err } = await run([
      'answer',
      file,
      '--result',
      'call_demo_computer=data:image/png;base64,iVBORw0KGgo=',
    ]);
    expect(err).toContain('Continuation (leg 1): Paris: sunny, 21 °C.');
    expect(code).toBe(0);
  });
});

describe('stream-inspector answer on a stream that is not paused', () => {
  it('names itself and says how a stream that is not paused ended, and exits 2', async () => {
    const done = providerFixturePath('openai-chat/text.sse');
    expect(await run(['answer', done])).toEqual({
      code: 2,
      out: '',
      err: `stream-inspector answer: ${done} ends done, not awaiting tools: there is nothing to answer\n`,
    });
    const cut = providerFixturePath('openai-chat/cut.sse');
    expect((await run(['answer', cut])).err).toBe(
      `stream-inspector answer: ${cut} ends truncated, not awaiting tools: there is nothing to answer\n`,
    );
    // A paused one still lists its pending tools (exit 1: nothing was sent).
    const paused = await run(['answer', providerFixturePath('ai-sdk-ui/tool-approval.sse')]);
    expect(paused.code).toBe(1);
    expect(paused.out).toMatch(/call_delete {2}delete_file/);
  });
});
