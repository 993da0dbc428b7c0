import { PACES, SCENARIOS, startDemoAgent, type Pace } from '../../services/demo-agent';
import { parse } from '../args';
import { UsageError, type Command } from '../io';

/** The port the demo agent listens on by default (0 picks a free one). */
export const DEFAULT_DEMO_PORT = 8787;

function parsePort(value: string | undefined): number {
  if (value === undefined) return DEFAULT_DEMO_PORT;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port takes a number from 0 to 65535, not '${value}'`);
  return port;
}

function parsePace(value: string | undefined): Pace {
  if (value === undefined) return 'realistic';
  if (!(PACES as readonly string[]).includes(value)) throw new UsageError(`--pace must be one of ${PACES.join(', ')}, not '${value}'`);
  return value as Pace;
}

/** Serves the demo agent on 127.0.0.1 until interrupted; prints its URL and endpoints. */
export const demoAgent: Command = async (args, io) => {
  const { values, positionals } = parse(args, { port: { type: 'string' }, pace: { type: 'string' }, seed: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0] ?? ''}'`);
  const agent = await startDemoAgent({ port: parsePort(values.port), pace: parsePace(values.pace), ...(values.seed ? { seed: values.seed } : {}) });
  io.stdout(
    [
      `Demo agent listening on ${agent.url}`,
      `  POST ${agent.url}/agent/run           {"user_prompt": "…", "format": "json|xml|raw", "scenario": "…"}`,
      `  POST ${agent.url}/agent/tool_results  {"agent_uuid": "…", "tool_results": [{"tool_use_id": "…", "content": "yes"}]}`,
      `  GET  ${agent.url}/agent/scenarios     ${SCENARIOS.length} scenarios: ${SCENARIOS.map((s) => s.id).join(', ')}`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );
  await io.interrupted;
  await agent.close();
  return 0;
};
