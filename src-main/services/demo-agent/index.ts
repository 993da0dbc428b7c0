export { startDemoAgent, type DemoAgent, type DemoAgentOptions } from './server';
export { SCENARIOS, DEFAULT_SCENARIO, selectScenario } from './scenarios/catalogue';
export type { Scenario } from './scenarios/scenario';
export type { Format } from './script';
export { PACES, type Pace } from './request-validation';
