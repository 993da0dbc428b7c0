import { ANTHROPIC_SCENARIOS } from './anthropic-scenarios';
import { OPENAI_SCENARIOS } from './openai-scenarios';
import { providerSse, type ProviderApiSpec, type ProviderScenario } from './types';

const PROMPT = 'What is the capital of France?';

/** The provider APIs the demo agent serves, by the dialect their streams are. */
export const PROVIDER_APIS: readonly ProviderApiSpec[] = [
  {
    id: 'anthropic',
    dialect: 'anthropic-messages',
    path: '/v1/messages',
    title: 'Anthropic Messages',
    scenarios: ANTHROPIC_SCENARIOS,
    sample: {
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        stream: true,
        messages: [{ role: 'user', content: PROMPT }],
      },
      headers: [['anthropic-version', '2023-06-01']],
    },
  },
  {
    id: 'openai',
    dialect: 'openai-responses',
    path: '/v1/responses',
    title: 'OpenAI Responses',
    scenarios: OPENAI_SCENARIOS,
    sample: { body: { model: 'gpt-5', stream: true, input: PROMPT } },
  },
];

export type ProviderApi = ProviderApiSpec;

/** The whole body of a scenario, as the API writes it. */
export function scenarioSse(api: ProviderApi, scenario: ProviderScenario): string {
  return scenario.events.map(api.encode ?? providerSse).join('');
}

/** The fixture file a scenario is written to (resources/fixtures/providers/<dialect>/<id>.sse). */
export function scenarioFixtureName(api: ProviderApi, scenario: ProviderScenario): string {
  return `${api.dialect}/${scenario.id}.sse`;
}
