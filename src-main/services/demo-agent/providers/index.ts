import { ANTHROPIC_SCENARIOS } from './anthropic-scenarios';
import { OPENAI_SCENARIOS } from './openai-scenarios';
import { providerSse, type ProviderScenario } from './types';

/** The provider APIs the demo agent serves, by the dialect their streams are. */
export const PROVIDER_APIS = [
  {
    id: 'anthropic',
    dialect: 'anthropic-messages',
    path: '/v1/messages',
    title: 'Anthropic Messages',
    scenarios: ANTHROPIC_SCENARIOS,
  },
  {
    id: 'openai',
    dialect: 'openai-responses',
    path: '/v1/responses',
    title: 'OpenAI Responses',
    scenarios: OPENAI_SCENARIOS,
  },
] as const;

export type ProviderApi = (typeof PROVIDER_APIS)[number];

/** The whole SSE body of a scenario. */
export function scenarioSse(scenario: ProviderScenario): string {
  return scenario.events.map(providerSse).join('');
}

/** The fixture file a scenario is written to (resources/fixtures/providers/<dialect>/<id>.sse). */
export function scenarioFixtureName(api: ProviderApi, scenario: ProviderScenario): string {
  return `${api.dialect}/${scenario.id}.sse`;
}
