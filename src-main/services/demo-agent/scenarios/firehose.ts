import { interleave, ScriptedAgent, type AgentInit } from '../scripted-agent';
import type { Step } from '../script';
import { seededRandom } from '../seeded';
import { deltasOf, toolTurn, type TurnSizes } from './random-text';
import { DONE, mainAgent, subAgent, type Scenario, type ScenarioContext } from './scenario';

/** A turn's parts are small, so every block closes within a few dozen deltas. */
const SIZES: TurnSizes = { thinking: [100, 1_500], text: [100, 2_000], payload: [50, 200] };
/** Distinct cycles generated per run; the stream plays them in turn (server: `firehose-stream.ts`). */
export const FIREHOSE_CYCLES = 8;
const SUB_AGENTS = ['reader', 'writer'] as const;

export interface FirehoseRun {
  /** meta_init of the main agent and of its two sub-agents. */
  head: Step[];
  /** One turn of each of the three agents, interleaved step by step. */
  cycles: Step[][];
  /** The main agent's closing answer and meta_final. */
  tail: Step[];
}

/**
 * An agent that remembers nothing but the prompt: each cycle's turns are those of a fresh
 * agent, so an endless run keeps no growing history (whose token count each turn would
 * re-serialise).
 */
function freshAgent(init: AgentInit): ScriptedAgent {
  const agent = new ScriptedAgent(init).start();
  agent.take();
  return agent;
}

/**
 * The parts of a firehose run: a main agent and two sub-agents, each cycle one turn of each
 * (thinking, text, a `read_file` call and its result) with their events interleaved.
 * `toolId` names cycle `n`'s tool call of an agent (ids stay unique over an endless run).
 */
export function firehoseRun(ctx: ScenarioContext, toolId: (agent: string, cycle: number) => string): FirehoseRun {
  const random = seededRandom(`${ctx.agentUuid}:firehose`);
  const main = mainAgent(ctx);
  const subs = SUB_AGENTS.map((name) => subAgent(ctx, main, name, `Read the ${name}'s files and report.`));
  const head = [...main.take(), ...subs.flatMap((s) => s.take())];
  const agents = [main, ...subs].map((a) => a.init);
  const cycles: Step[][] = [];
  for (let cycle = 0; cycle < FIREHOSE_CYCLES; cycle++) {
    const lanes = agents.map((init) => {
      const agent = freshAgent(init);
      toolTurn(agent, random, toolId(init.uuid, cycle), `notes/${cycle}.md`, SIZES);
      return agent.take();
    });
    cycles.push(interleave(...lanes));
  }
  const closing = freshAgent(main.init);
  closing.turn().text(deltasOf(random, 400)).end('end_turn');
  return { head, cycles, tail: closing.finish().take() };
}

export const firehoseToolId = (agent: string, cycle: number | string): string =>
  `toolu_firehose_${agent.slice(0, 8)}_${cycle}`;

/**
 * Three agents streaming deltas without end, paced to a rate in envelopes per second for a
 * duration (request fields `rate` and `duration`, see docs/demo-agent.md). Served by the
 * paced writer; `build` is one unpaced pass over its cycles.
 */
export const firehose: Scenario = {
  id: 'firehose',
  title: 'Firehose',
  summary:
    'A main agent and two sub-agents streaming thinking, text and small tool calls, their events interleaved, paced to "rate" envelopes per second (default 1,000) for "duration" seconds (default 10; 0: until the client disconnects). JSON format.',
  keywords: ['firehose'],
  samplePrompt: 'Firehose: stream as fast as I ask.',
  build(ctx) {
    const run = firehoseRun(ctx, firehoseToolId);
    return { steps: [...run.head, ...run.cycles.flat(), ...run.tail, DONE] };
  },
};
