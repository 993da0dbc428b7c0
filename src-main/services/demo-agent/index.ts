export { startDemoAgent, type DemoAgent } from './server';
export { SCENARIOS, DEFAULT_SCENARIO, selectScenario } from './scenarios/catalogue';
export type { Format } from './script';
export { PACES, type Pace } from './request-validation';
