import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../../testing/fixtures';
import { startDemoAgent, type DemoAgent } from '../demo-agent/index';
import { createDefaultSessionService } from '../../hosts/default-service';
import { settled } from './service-testing';
import type { SessionService } from './session-service';

let agent: DemoAgent;
let service: SessionService;

beforeAll(async () => {
  agent = await startDemoAgent({ pace: 'fast' });
  service = createDefaultSessionService();
});
afterAll(async () => {
  await service.dispose();
  await agent.close();
});

/** Runs of one scenario compare block for block when they share the agent uuid (meta_init carries it). */
const AGENT_UUID = '77777777-7777-4777-8777-777777777777';

async function demoRun(format: string, scenario: string): Promise<string> {
  const { id } = await service.connect({
    url: `${agent.url}/agent/run?format=${format}`,
    method: 'POST',
    headers: [],
    body: { kind: 'json', text: JSON.stringify({ user_prompt: 'x', scenario, agent_uuid: AGENT_UUID }) },
  });
  await settled(service, id);
  return id;
}

describe('diffing sessions', () => {
  it('finds no block differences between the XML and JSON runs of one scenario', async () => {
    const [xml, json] = await Promise.all([demoRun('xml', 'subagents'), demoRun('json', 'subagents')]);
    const { diff, transcript } = await service.diffSessions({ left: xml, right: json });
    expect(diff.counts.differences).toBe(0);
    expect(diff.counts.equal).toBeGreaterThan(0);
    // Sub-agents cannot be attributed in XML: those rows differ by construction, and say so.
    expect(diff.rows.filter((r) => r.status !== 'equal').every((r) => r.inherent !== undefined)).toBe(true);
    expect(diff.left.dialects).toContain('xml');
    expect(diff.right.dialects).toContain('json');
    expect(transcript.left.length).toBeGreaterThan(0);
  });

  it('shows the differences between two different scenarios', async () => {
    const [a, b] = await Promise.all([demoRun('json', 'thinking'), demoRun('json', 'client-tools')]);
    const { diff } = await service.diffSessions({ left: a, right: b });
    expect(diff.counts.differences).toBeGreaterThan(0);
    expect(diff.rows.some((r) => r.status !== 'equal')).toBe(true);
  });

  it('diffs opened files too, and refuses a session that is still receiving', async () => {
    const left = await service.openFile({ path: fixturePath('example_1.xml.sse') });
    const right = await service.openFile({ path: fixturePath('example_1.json.sse') });
    await expect(service.diffSessions({ left: left.id, right: right.id })).rejects.toThrow(/still receiving/);
    await Promise.all([settled(service, left.id), settled(service, right.id)]);
    const { diff } = await service.diffSessions({ left: left.id, right: right.id });
    expect(diff.rows.length).toBeGreaterThan(0);
  });
});
