import { PACES, SCENARIOS, startDemoAgent, type Pace } from '../../services/demo-agent';
import { parse, parsePort } from '../args';
import { serveUntilInterrupted, UsageError, type Command } from '../io';

/** The port the demo agent listens on by default (0 picks a free one). */
export const DEFAULT_DEMO_PORT = 8787;

function parsePace(value: string | undefined): Pace {
  if (value === undefined) return 'realistic';
  if (!(PACES as readonly string[]).includes(value))
    throw new UsageError(`--pace must be one of ${PACES.join(', ')}, not '${value}'`);
  return value as Pace;
}

/** Serves the demo agent on 127.0.0.1 until interrupted; prints its URL and endpoints. */
export const demoAgent: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    port: { type: 'string' },
    pace: { type: 'string' },
    seed: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
  const agent = await startDemoAgent({
    port: parsePort(values.port, DEFAULT_DEMO_PORT),
    pace: parsePace(values.pace),
    ...(values.seed ? { seed: values.seed } : {}),
  });
  const endpoints = [
    `Demo agent listening on ${agent.url}`,
    `  POST ${agent.url}/agent/run           {"user_prompt": "…", "format": "json|xml|raw", "scenario": "…"}`,
    `  POST ${agent.url}/agent/tool_results  {"agent_uuid": "…", "tool_results": [{"tool_use_id": "…", "content": "yes"}]}`,
    `  GET  ${agent.url}/agent/scenarios     ${SCENARIOS.length} scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}`,
    `  POST ${agent.url}/agent/run           {"user_prompt": "…", "scenario": "firehose", "rate": 50000, "duration": 60}   (envelopes/s, seconds; 0: until disconnected)`,
  ];
  return serveUntilInterrupted(io, endpoints, agent);
};
