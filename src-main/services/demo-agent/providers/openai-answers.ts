import { isJsonObject } from '../../../../src-shared/json/values';
import type { ProviderScenario } from './types';

/**
 * How the demo's Responses API reads a client's answer (openai-scenarios.ts): the outputs and
 * approval responses in the continuing request's input pick the scenario to stream.
 */

/** The approval the mcp-approval scenario asks for: an MCP call the server runs only once approved. */
export const APPROVAL_REQUEST = {
  id: 'mcpr_demo_delete',
  type: 'mcp_approval_request',
  server_label: 'calendar',
  name: 'delete_event',
  arguments: '{"id":"evt_standup"}',
};

/**
 * The scenario as a request answers it: one whose input holds a function or custom tool call's
 * output (the client's answer to the calls a response completed with) gets the answer from it,
 * and one that answers the mcp-approval request the MCP call or not, whatever scenario the body
 * still names.
 */
export function responsesContinuation(scenarios: readonly ProviderScenario[]) {
  return (scenario: ProviderScenario, body: unknown): ProviderScenario => {
    const input: unknown[] = isJsonObject(body) && Array.isArray(body['input']) ? body['input'] : [];
    const approval = input.find(
      (item) =>
        isJsonObject(item) &&
        item['type'] === 'mcp_approval_response' &&
        item['approval_request_id'] === APPROVAL_REQUEST.id,
    );
    const answers = input.some(
      (item) =>
        isJsonObject(item) && (item['type'] === 'function_call_output' || item['type'] === 'custom_tool_call_output'),
    );
    const id = isJsonObject(approval)
      ? approval['approve'] === true
        ? 'mcp-approved'
        : 'mcp-denied'
      : answers
        ? 'function-answered'
        : undefined;
    return scenarios.find((s) => s.id === id) ?? scenario;
  };
}
