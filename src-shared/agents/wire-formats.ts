import type { DialectEvidence } from '../dialects/evidence';

/**
 * The wire formats an agent server built like upstream streams in, chosen with `?format=` or
 * a JSON body's `format` (docs/protocols/upstream-protocol.md §9): JSON envelopes, legacy XML
 * and raw Anthropic events. The demo agent, "run in formats" and its contract read this list.
 */
export const WIRE_FORMATS = ['json', 'xml', 'raw'] as const;

export type WireFormat = (typeof WIRE_FORMATS)[number];

/** Whether a stream's dialect is one of these formats (a provider API's dialect is not). */
export function isWireFormat(dialect: string): dialect is WireFormat {
  return (WIRE_FORMATS as readonly string[]).includes(dialect);
}

/**
 * The upstream server's agent configurations, in the order its request model declares them
 * (its validation errors list them so): `agent_type` of a run request
 * (docs/protocols/upstream-protocol.md §8 #33). The demo agent validates against it and the
 * connect form offers it.
 */
export const AGENT_TYPES = [
  'agent_no_tools',
  'agent_client_tools',
  'agent_frontend_tools',
  'agent_all_json',
  'agent_skills',
  'agent_subagents',
] as const;

export type AgentType = (typeof AGENT_TYPES)[number];

/**
 * The upstream agent's streaming endpoints (docs/protocols/upstream-protocol.md §8 #33, §9 #36-37):
 * the URL evidence of its three dialects. A stream from one of them whose events none of the
 * three claims is decoded as the first that declares it, JSON envelopes, the server's default.
 */
export const AGENT_ENDPOINTS: DialectEvidence = {
  urlPaths: ['/agent/run', '/agent/run/multipart', '/agent/tool_results'],
};
