import { interleave, type ScriptedAgent } from '../scripted-agent';
import type { Step } from '../script';
import { DONE, deltas, mainAgent, subAgent, thoughtDeltas, type Scenario, type ScenarioContext } from './scenario';

/** The parent's `spawn_subagent` result once a child completes (`sub_agent_tool.py`). */
function spawnResult(name: string, child: ScriptedAgent): string {
  return `[Subagent '${name}' completed]\nAgent UUID: ${child.uuid}\n\n${child.finalAnswer()}\n\n[stop_reason=${child.stopReason ?? 'end_turn'}, steps=${child.totalSteps}]`;
}

/**
 * A child's whole run as one lane, ending with the parent's tool_result for its spawn:
 * the parent emits each spawn result as that child completes (completion order).
 */
function childLane(parent: ScriptedAgent, spawnId: string, name: string, child: ScriptedAgent): Step[] {
  const lane = child.finish().take();
  parent.toolResult(spawnId, 'spawn_subagent', spawnResult(name, child));
  return [...lane, ...parent.take()];
}

function researcher(ctx: ScenarioContext, parent: ScriptedAgent): Step[] {
  const child = subAgent(ctx, parent, 'researcher', 'Find the height of the Eiffel Tower in metres.');
  child
    .turn()
    .thinking(
      thoughtDeltas(
        'I need the official height. The tower was 300 m at opening; antennas raised it to 324 m and a new one in 2022 to 330 m. I will give 330 m with that context.',
      ),
    )
    .text(
      deltas(
        'The Eiffel Tower is **330 m** tall, including the antenna added in 2022 (it was 300 m when it opened in 1889).',
      ),
    )
    .end('end_turn');
  return childLane(parent, 'toolu_demo_spawn_research', 'researcher', child);
}

function calculator(ctx: ScenarioContext, parent: ScriptedAgent): Step[] {
  const child = subAgent(ctx, parent, 'calculator', 'Convert 330 metres to feet.');
  child
    .turn()
    .text(deltas('One metre is 3.28084 feet, so I multiply.'))
    .toolUse('toolu_demo_child_multiply', 'multiply', { a: 330, b: 3.28084 })
    .end('tool_use');
  child.toolResult('toolu_demo_child_multiply', 'multiply', '1082.6772');
  child.turn().text(deltas('330 m ≈ 1,082.7 ft.')).end('end_turn');
  return childLane(parent, 'toolu_demo_spawn_calc', 'calculator', child);
}

export const subagents: Scenario = {
  id: 'subagents',
  title: 'Two sub-agents in parallel',
  summary:
    'The parent spawns two sub-agents that stream concurrently into the same response: their meta_init (with parent_agent_uuid), thinking and text interleave event by event, then the parent resumes. In xml and raw the children cannot be told apart, as upstream.',
  keywords: ['subagent', 'subagents', 'sub-agent', 'sub-agents', 'parallel', 'delegate'],
  samplePrompt: 'Use sub-agents in parallel: find the Eiffel Tower height and convert it to feet.',
  demonstrates: { xml: ['xml.subagent-unattributed'], raw: ['xml.subagent-unattributed'] },
  build(ctx) {
    const parent = mainAgent(ctx);
    parent
      .turn()
      .text(deltas("I'll split this between two sub-agents running in parallel."))
      .toolUse('toolu_demo_spawn_research', 'spawn_subagent', {
        agent_name: 'researcher',
        task: 'Find the height of the Eiffel Tower in metres.',
      })
      .toolUse('toolu_demo_spawn_calc', 'spawn_subagent', {
        agent_name: 'calculator',
        task: 'Convert 330 metres to feet.',
      })
      .end('tool_use');
    const head = parent.take();
    const concurrent = interleave(researcher(ctx, parent), calculator(ctx, parent));
    parent.turn().text(deltas('The Eiffel Tower is 330 m tall, which is about **1,082.7 feet**.')).end('end_turn');
    return { steps: [...head, ...concurrent, ...parent.finish().take(), DONE] };
  },
};
