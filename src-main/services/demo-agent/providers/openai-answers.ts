import { openAiResponsesContinuation } from '../../../../src-shared/dialects/openai-responses/client-calls';
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

/** The computer-use scenario's call: a click on the forecast page, with a safety check the client acknowledges. */
export const COMPUTER_CALL = {
  id: 'cu_demo_click',
  type: 'computer_call',
  call_id: 'call_demo_computer',
  action: { type: 'click', button: 'left', x: 412, y: 96 },
  pending_safety_checks: [
    { id: 'cu_sc_demo', code: 'irrelevant_domain', message: 'The page is not on the domain of the task.' },
  ],
};

/**
 * The scenario as a request answers it: one whose input holds a function, custom tool or
 * computer call's output (the client's answer to the calls a response completed with) gets
 * the answer from it,
 * and one that answers the mcp-approval request the MCP call or not, whatever scenario the body
 * still names.
 */
export function responsesContinuation(scenarios: readonly ProviderScenario[]) {
  return (scenario: ProviderScenario, body: unknown): ProviderScenario => {
    // What the client answered, read back as the dialect reads a continuation it recorded.
    const answers = openAiResponsesContinuation.answersIn?.(JSON.stringify(body ?? null), []) ?? [];
    const approval = answers.find((a) => a.toolUseId === APPROVAL_REQUEST.id && a.approved !== undefined);
    const id = approval
      ? `mcp-${approval.approved ? 'approved' : 'denied'}`
      : answers.some((a) => a.approved === undefined)
        ? 'function-answered'
        : undefined;
    const chosen = scenarios.find((s) => s.id === id) ?? scenario;
    return isJsonObject(body) ? asRequested(chosen, body) : chosen;
  };
}

/** The encrypted reasoning the demo's reasoning items carry when asked for: opaque, as the API's is. */
const DEMO_ENCRYPTED_REASONING = 'gAAAAABdemo-encrypted-reasoning-the-api-decrypts-when-it-is-sent-back==';

/**
 * The scenario as the request's options shape it, as the API does: with `"store": false` every
 * response object echoes it; with `include: ["reasoning.encrypted_content"]` every reasoning
 * item carries its encrypted content (what a conversation not stored sends back to keep it).
 */
function asRequested(scenario: ProviderScenario, body: Record<string, unknown>): ProviderScenario {
  const notStored = body['store'] === false;
  const encrypted = Array.isArray(body['include']) && body['include'].includes('reasoning.encrypted_content');
  if (!notStored && !encrypted) return scenario;
  const item = (value: unknown): unknown =>
    encrypted && isJsonObject(value) && value['type'] === 'reasoning'
      ? { ...value, encrypted_content: DEMO_ENCRYPTED_REASONING }
      : value;
  const events = scenario.events.map((event) => {
    if (typeof event.data === 'string') return event;
    const data = { ...event.data };
    if (data['item'] !== undefined) data['item'] = item(data['item']);
    const response = data['response'];
    if (isJsonObject(response)) {
      const output = Array.isArray(response['output']) ? response['output'].map(item) : response['output'];
      data['response'] = { ...response, output, ...(notStored ? { store: false } : {}) };
    }
    return { ...event, data };
  });
  return { ...scenario, events };
}
