import type { RuleId } from '../../../../src-shared/diagnostics/rules';
import { ScriptedAgent, type UserPrompt } from '../scripted-agent';
import { pieces } from '../scripted-turn';
import type { Format, Script, Step } from '../script';

export interface ScenarioContext {
  /** The main agent's UUID (the request's `agent_uuid`, or a seeded one). */
  agentUuid: string;
  prompt: UserPrompt;
  /** A sub-agent's UUID, derived from the main agent's so runs stay reproducible. */
  childUuid(name: string): string;
}

export interface Scenario {
  id: string;
  title: string;
  summary: string;
  /** Words in the user prompt that select this scenario. */
  keywords: readonly string[];
  /** Prompt the app can offer for this scenario. */
  samplePrompt: string;
  /** Diagnostics the scenario exists to demonstrate, per format (fault scenarios). */
  demonstrates?: Partial<Record<Format, readonly RuleId[]>>;
  build(ctx: ScenarioContext): Script;
}

/** Text as an API streams it: pieces of irregular length (5 to 23 characters). */
export function deltas(text: string): string[] {
  const sizes = [5, 17, 11, 23, 8, 14];
  const chars = Array.from(text);
  const out: string[] = [];
  for (let at = 0, i = 0; at < chars.length; i++) {
    const size = sizes[i % sizes.length] ?? 16;
    out.push(chars.slice(at, at + size).join(''));
    at += size;
  }
  return out;
}

/** Thinking as the API streams it: word groups. */
export function thoughtDeltas(text: string): string[] {
  return pieces(text, 12);
}

/** The run's main agent, started (meta_init emitted). */
export function mainAgent(ctx: ScenarioContext): ScriptedAgent {
  return new ScriptedAgent({ uuid: ctx.agentUuid, parent: null, prompt: ctx.prompt, streamMeta: true }).start();
}

/** A sub-agent of `parent`, started: it streams into the parent's response without the meta flag. */
export function subAgent(ctx: ScenarioContext, parent: ScriptedAgent, name: string, task: string): ScriptedAgent {
  return new ScriptedAgent({ uuid: ctx.childUuid(name), parent: parent.uuid, prompt: task, streamMeta: false }).start();
}

/** The run completes: meta_files/meta_final, then the router's [DONE]. */
export function completed(agent: ScriptedAgent): Script {
  return { steps: [...agent.finish().take(), DONE] };
}

/** What a scenario is, apart from how it runs. */
export type ScenarioInfo = Omit<Scenario, 'build'>;

/** A scenario the main agent runs alone and completes: `script` drives the started agent. */
export function singleAgentScenario(info: ScenarioInfo, script: (agent: ScriptedAgent) => void): Scenario {
  return {
    ...info,
    build(ctx) {
      const agent = mainAgent(ctx);
      script(agent);
      return completed(agent);
    },
  };
}

export const DONE: Step = { kind: 'done' };
