import { describe, expect, it } from 'vitest';
import { demoAgentInfo, demoScenarioOf } from './demo-agent-info';
import { liveSessionTitle } from './session-title';

const demo = { info: demoAgentInfo('http://127.0.0.1:8787'), scenarioOf: demoScenarioOf };
const title = (url: string, body: unknown = null, method = 'POST') =>
  liveSessionTitle({ method, url: new URL(url), body: body === null ? null : JSON.stringify(body) }, demo);

describe('live session titles', () => {
  it('names a demo-agent run after its scenario and format', () => {
    expect(title('http://127.0.0.1:8787/agent/run', { user_prompt: 'x', scenario: 'subagents', format: 'xml' })).toBe(
      'Demo agent: Two sub-agents in parallel · xml',
    );
    expect(title('http://127.0.0.1:8787/agent/run?format=raw&scenario=tour', { user_prompt: 'x', format: 'xml' })).toBe(
      'Demo agent: Tour · raw',
    );
    // Without a scenario, the one the demo agent picks for the prompt.
    expect(title('http://127.0.0.1:8787/agent/run', { user_prompt: 'Use sub-agents in parallel.' })).toBe(
      'Demo agent: Two sub-agents in parallel · json',
    );
  });

  it('regression: a preset’s name stuck to another URL — any other endpoint is named by method, host, path and what the body says', () => {
    expect(title('http://127.0.0.1:9999/agent/run', { user_prompt: 'x', agent_type: 'agent_subagents' })).toBe(
      'POST 127.0.0.1:9999/agent/run · agent_subagents',
    );
    expect(title('https://api.example.com/v2/stream?format=json', { scenario: 'checkout' })).toBe(
      'POST api.example.com/v2/stream · checkout · json',
    );
    expect(title('http://localhost:8000/events', null, 'GET')).toBe('GET localhost:8000/events');
    expect(title('http://localhost:8000/events', 'not an object')).toBe('POST localhost:8000/events');
  });

  it('names the demo agent’s other endpoints by their path, and never shows the query', () => {
    expect(title('http://127.0.0.1:8787/agent/tool_results?token=secret', {})).toBe(
      'POST 127.0.0.1:8787/agent/tool_results',
    );
  });

  it('shortens a very long part', () => {
    expect(title('http://h/x', { scenario: 'y'.repeat(500) }).length).toBeLessThan(120);
  });
});
