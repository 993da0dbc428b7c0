import type { RuleId } from '../../../../src-shared/diagnostics/rules';
import { createEmitter, sseEvent } from '../emit';
import type { Format, Step } from '../script';
import type { ScenarioInfo } from './scenario';

/* The building parts of the fault scenarios (faults.ts): their info, and steps of hand-made bytes. */

export type ToolResultStep = Extract<Step, { kind: 'tool_result' }>;

/** A fault scenario is asked for by its id: the id is its keyword and its sample prompt. */
export function fault(
  id: string,
  info: Pick<ScenarioInfo, 'title' | 'summary' | 'demonstrates'>,
  moreKeywords: readonly string[] = [],
): ScenarioInfo {
  return { id, ...info, keywords: [id, ...moreKeywords], samplePrompt: id };
}

/** The same diagnostics in every format. */
export function inEveryFormat(rules: readonly RuleId[]): Record<Format, readonly RuleId[]> {
  return { json: rules, xml: rules, raw: rules };
}

export function wire(label: string, render: Record<Format, () => string>): Step {
  return { kind: 'wire', label, render: (format) => render[format]() };
}

/** Steps rendered by a fresh formatter of `format`, framed as the router frames them. */
export function rendered(format: Format, steps: readonly Step[]): string {
  const emitter = createEmitter(format);
  return steps
    .flatMap((s) => emitter.emit(s))
    .map((op) => (op.op === 'event' ? sseEvent(op.data) : op.op === 'bytes' ? op.text : ''))
    .join('');
}
