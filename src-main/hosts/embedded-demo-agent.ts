import { startDemoAgent, type DemoAgent } from '../services/demo-agent/index';

/**
 * The port the app's embedded demo agent asks for first, the same on every start, so a saved
 * request or an environment's `base_url` pointing at it stays right after a restart; when
 * another process holds it, any free port (and `{{demo_url}}` still names the agent).
 */
export const DEMO_AGENT_PORT = 47_800;

/** Starts the demo agent a host embeds: on `port` when given, else on `preferredPort` or, when that is taken, a free one. */
export async function startEmbeddedDemoAgent(
  options: { port?: number; preferredPort?: number } = {},
): Promise<DemoAgent> {
  if (options.port !== undefined) return startDemoAgent({ port: options.port });
  try {
    return await startDemoAgent({ port: options.preferredPort ?? DEMO_AGENT_PORT });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return startDemoAgent({ port: 0 });
  }
}
