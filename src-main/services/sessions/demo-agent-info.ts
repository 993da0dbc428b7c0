import type { DemoAgentInfo } from '../../../src-shared/contract/payloads';
import { DEFAULT_SCENARIO, SCENARIOS, selectScenario } from '../demo-agent/index';
import { PROVIDER_APIS } from '../demo-agent/providers';
import { samplePath } from '../demo-agent/providers/types';
import type { PyValue } from '../demo-agent/python-json';
import { FORMATS } from '../demo-agent/script';

/**
 * What the connect view needs about the embedded demo agent: its endpoints, formats and
 * scenarios, and the request a newcomer runs first (the default scenario, JSON format).
 */
export function demoAgentInfo(baseUrl: string): NonNullable<DemoAgentInfo> {
  const runUrl = `${baseUrl}/agent/run`;
  return {
    baseUrl,
    runUrl,
    toolResultsUrl: `${baseUrl}/agent/tool_results`,
    formats: [...FORMATS],
    scenarios: SCENARIOS.map((s) => ({ id: s.id, title: s.title, description: s.summary })),
    providers: PROVIDER_APIS.map((api) => ({
      id: api.id,
      title: api.title,
      url: `${baseUrl}${samplePath(api)}`,
      dialect: api.dialect,
      scenarios: api.scenarios.map((s) => ({ id: s.id, title: s.title, description: s.summary })),
      sampleBody: JSON.stringify(api.sample.body),
      sampleHeaders: (api.sample.headers ?? []).map(([name, value]) => ({ name, value })),
    })),
    defaultRequest: {
      url: runUrl,
      method: 'POST',
      headers: [],
      body: {
        kind: 'json',
        text: JSON.stringify(
          { user_prompt: DEFAULT_SCENARIO.samplePrompt, agent_type: 'agent_frontend_tools', format: 'json' },
          null,
          2,
        ),
      },
    },
  };
}

/** The scenario the demo agent plays for a prompt (parsed JSON: a string or content blocks). */
export function demoScenarioOf(prompt: unknown): { id: string; title: string } {
  const scenario = selectScenario(prompt as PyValue);
  return { id: scenario.id, title: scenario.title };
}
