import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agUiDialect } from '../../../../src-shared/dialects/ag-ui';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { startDemoAgent, type DemoAgent } from '../server';
import { AG_UI_SAMPLE_INPUT } from './ag-ui-scenarios';

let demo: DemoAgent;
beforeAll(async () => {
  demo = await startDemoAgent({ pace: 'fast' });
});
afterAll(async () => {
  await demo.close();
});

async function run(body: unknown): Promise<ReturnType<typeof decodeBytes>> {
  const response = await fetch(`${demo.url}/ag-ui`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return decodeBytes(new Uint8Array(await response.arrayBuffer()));
}

describe('the demo AG-UI agent and a frontend tool answered by hand', () => {
  it('answers a RunAgentInput without a stream flag, and continues the paused run once the frontend answers', async () => {
    const previousBody = JSON.stringify({ ...AG_UI_SAMPLE_INPUT, scenario: 'frontend-tool' });
    const paused = await run(previousBody);
    const awaiting = paused.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
    expect(awaiting?.pendingTools?.map((t) => t.name)).toEqual(['user_confirm']);

    // What the session service sends as the next leg: the hook's body, from the paused one.
    const next = agUiDialect.clientTools?.continueBody({
      previousBody,
      calls: awaiting?.pendingTools ?? [],
      answers: [{ toolUseId: 'call-demo-confirm', content: 'yes' }],
    });
    const continued = await run(next ?? '');
    expect(continued.formats).toEqual(['ag-ui']);
    expect(continued.blocks.find((b) => b.kind === 'text')?.content).toBe(
      'Confirmed — the 09:40 train to Lyon is booked.',
    );
    expect(continued.diagnostics).toEqual([]);
  });

  it('plays the first run when the input asks for nothing in particular', async () => {
    const result = await run(AG_UI_SAMPLE_INPUT);
    expect(result.blocks.find((b) => b.kind === 'text')?.content).toBe('Paris is the capital of France.');
  });
});
