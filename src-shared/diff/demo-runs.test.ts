/**
 * Two real runs of the demo agent, as the diff view compares them: every run gets new agent
 * uuids and new thinking signatures, and neither may show as a block difference; two different
 * scenarios still differ.
 */
import { describe, expect, it } from 'vitest';
import { readAll, useDemoAgent } from '../../src-main/services/demo-agent/testing/http';
import { decodeLegs } from '../pipeline/session-decoder';
import type { DecodeResult } from '../pipeline/types';
import { diffSessions } from './diff';
import type { SessionDiff } from './types';

const demo = useDemoAgent();

/** One run as the inspector receives it; the server picks the agent uuids (none is fixed). */
async function run(scenario: string, format: 'json' | 'xml'): Promise<DecodeResult> {
  const response = await fetch(`${demo.url}/agent/run`, {
    method: 'POST',
    body: JSON.stringify({ user_prompt: 'Show me around', scenario, format }),
  });
  expect(response.status).toBe(200);
  return decodeLegs([[{ bytes: (await readAll(response)).bytes }]]);
}

const rootUuid = (result: DecodeResult): string | undefined => result.agents.find((a) => a.parent === null)?.uuid;

const unexplained = (diff: SessionDiff): string[] =>
  diff.rows.filter((r) => r.status !== 'equal' && !r.inherent).map((r) => `${r.status} ${r.kind}: ${r.reason}`);

describe('two runs of the demo agent', () => {
  it('the XML and JSON runs of one scenario have no block differences', async () => {
    const xml = await run('tour', 'xml');
    const json = await run('tour', 'json');
    expect(rootUuid(xml)).not.toBe(rootUuid(json));
    const diff = diffSessions(xml, json);
    expect(unexplained(diff)).toEqual([]);
    expect(diff.counts).toMatchObject({ changed: 0, onlyLeft: 0, onlyRight: 0, inherent: 0 });
    const used = new Set(diff.rows.flatMap((r) => r.normalisations));
    expect(used).toContain('run-agent-uuids');
    expect(used).toContain('thinking-signature');
  });

  it('two JSON runs of a scenario with sub-agents have no block differences', async () => {
    const diff = diffSessions(await run('subagents', 'json'), await run('subagents', 'json'));
    expect(diff.agents).toHaveLength(3);
    expect(diff.agents.every((p) => p.by === 'structure')).toBe(true);
    expect(diff.counts).toMatchObject({ changed: 0, onlyLeft: 0, onlyRight: 0, differences: 0 });
  });

  it('the XML and JSON runs of a scenario with sub-agents differ only where xml cannot attribute them', async () => {
    const diff = diffSessions(await run('subagents', 'xml'), await run('subagents', 'json'));
    expect(diff.flattened).toBe(true);
    expect(unexplained(diff)).toEqual([]);
    expect(
      diff.rows.filter((r) => r.kind === 'meta_init' || r.kind === 'tool_result').every((r) => r.status === 'equal'),
    ).toBe(true);
  });

  it('two different scenarios still differ', async () => {
    const diff = diffSessions(await run('tour', 'json'), await run('citations', 'json'));
    expect(diff.counts.differences).toBeGreaterThan(0);
  });
});
