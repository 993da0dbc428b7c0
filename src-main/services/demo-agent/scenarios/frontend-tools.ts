import type { ScriptedAgent } from '../scripted-agent';
import type { FrontendResult, PendingTool, Script } from '../script';
import { completed, DONE, deltas, mainAgent, type Scenario } from './scenario';

const YES = new Set(['yes', 'y', 'ok', 'okay', 'confirm', 'confirmed', 'true']);
const NO = new Set(['no', 'n', 'cancel', 'false']);

function confirmTool(attempt: number, message: string): PendingTool {
  return {
    tool_use_id: attempt === 1 ? 'toolu_demo_confirm' : `toolu_demo_confirm_${attempt}`,
    name: 'user_confirm',
    input: { message },
  };
}

/** The run pauses: backend results were streamed, awaiting_frontend_tools, then [DONE]. */
function pause(agent: ScriptedAgent, tool: PendingTool, attempt: number): Script {
  agent.awaitFrontendTools([tool]);
  return {
    steps: [...agent.take(), DONE],
    pause: { agent: agent.uuid, tools: [tool], resume: (results) => resume(agent, tool, attempt, results) },
  };
}

/**
 * The continuation leg (legacy behaviour): no meta_init, a tool_result for the user's answer,
 * then an answer that depends on it. An answer that is neither yes nor no asks again.
 */
function resume(agent: ScriptedAgent, tool: PendingTool, attempt: number, results: readonly FrontendResult[]): Script {
  agent.frontendResults(results, [tool]);
  const answer = results.find((r) => r.tool_use_id === tool.tool_use_id) ?? {
    tool_use_id: tool.tool_use_id,
    content: '',
    is_error: true,
  };
  const word = answer.content.trim().toLowerCase();
  let reply: string;
  if (answer.is_error)
    reply = `The confirmation dialog failed (“${answer.content}”), so I did not save the report. 12 × 7 = 84.`;
  else if (YES.has(word)) reply = 'Confirmed — the report is saved. 12 × 7 = 84.';
  else if (NO.has(word)) reply = 'Understood — I did not save the report. 12 × 7 = 84.';
  else {
    const again = confirmTool(
      attempt + 1,
      `I could not read “${answer.content}” as yes or no. Save the report? (yes/no)`,
    );
    agent
      .turn()
      .text(deltas('I need a clear yes or no before saving.'))
      .toolUse(again.tool_use_id, again.name, again.input)
      .end('tool_use');
    return pause(agent, again, attempt + 1);
  }
  agent.turn().text(deltas(reply)).end('end_turn');
  return completed(agent);
}

export const frontendTools: Scenario = {
  id: 'frontend-tools',
  title: 'Frontend tool (user_confirm)',
  summary:
    'A backend tool runs, then the agent pauses on user_confirm: awaiting_frontend_tools and [DONE]. POST /agent/tool_results with "yes" or "no" continues the run in a new stream; any other answer asks again.',
  keywords: ['confirm', 'frontend', 'approval', 'approve', 'pause'],
  samplePrompt: 'What is 12 * 7? Confirm with me before saving the report.',
  build(ctx) {
    const agent = mainAgent(ctx);
    const tool = confirmTool(1, 'The product is 84. Save the report?');
    agent
      .turn()
      .text(deltas('Let me compute that, then ask you to confirm before saving.'))
      .toolUse('toolu_demo_front_multiply', 'multiply', { a: 12, b: 7 })
      .toolUse(tool.tool_use_id, tool.name, tool.input)
      .end('tool_use');
    agent.toolResult('toolu_demo_front_multiply', 'multiply', '84');
    return pause(agent, tool, 1);
  },
};
