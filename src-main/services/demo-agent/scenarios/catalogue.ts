import { PyFloat, PyModel, type PyValue } from '../python-json';
import { citations, clientTools, CONTENT_SCENARIOS, files, multimodal, serverTools, thinking, tour } from './content';
import { FAILURE_SCENARIOS } from './failures';
import { FAULT_SCENARIOS } from './faults';
import { INLINE_SCENARIOS } from './inline';
import { frontendTools } from './frontend-tools';
import { firehose } from './firehose';
import { longAnswer } from './long-answer';
import type { Scenario } from './scenario';
import { subagents } from './subagents';

export const SCENARIOS: readonly Scenario[] = [
  ...CONTENT_SCENARIOS,
  subagents,
  frontendTools,
  ...FAILURE_SCENARIOS,
  longAnswer,
  firehose,
  ...INLINE_SCENARIOS,
  ...FAULT_SCENARIOS,
];
export const DEFAULT_SCENARIO = tour;

const BY_ID = new Map(SCENARIOS.map((s) => [s.id, s]));

export function scenarioById(id: string): Scenario | undefined {
  return BY_ID.get(id);
}

/** The words of a prompt: a string, or the text parts of content blocks / a message. */
export function promptText(prompt: PyValue): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) return (prompt as readonly PyValue[]).map(promptText).join(' ');
  if (prompt && typeof prompt === 'object' && !(prompt instanceof PyModel) && !(prompt instanceof PyFloat)) {
    const record = prompt as Readonly<Record<string, PyValue>>;
    if (typeof record['text'] === 'string') return record['text'];
    if (record['content'] !== undefined) return promptText(record['content']);
  }
  return '';
}

/** Keyword matching tries the narrowest scenarios first ("confirm … report" is a pause, not files). */
const MATCH_ORDER: readonly Scenario[] = [
  ...FAULT_SCENARIOS,
  ...INLINE_SCENARIOS,
  frontendTools,
  subagents,
  ...FAILURE_SCENARIOS,
  firehose,
  longAnswer,
  files,
  multimodal,
  serverTools,
  citations,
  thinking,
  clientTools,
  tour,
];

/**
 * The scenario a prompt asks for: a scenario id among its words wins (`fault-truncated`),
 * then the first scenario (narrowest first) with a keyword among them; else the tour.
 */
export function selectScenario(prompt: PyValue): Scenario {
  const words = new Set(
    promptText(prompt)
      .toLowerCase()
      .split(/[^a-z0-9-]+/)
      .filter(Boolean),
  );
  return (
    SCENARIOS.find((s) => words.has(s.id)) ??
    MATCH_ORDER.find((s) => s.keywords.some((k) => words.has(k))) ??
    DEFAULT_SCENARIO
  );
}
