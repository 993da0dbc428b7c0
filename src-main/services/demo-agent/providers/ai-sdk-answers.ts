import { isJsonObject } from '../../../../src-shared/json/values';
import type { ProviderScenario } from './types';

/**
 * How the demo's AI SDK chat reads a frontend's answer (ai-sdk-scenarios.ts): the conversation
 * sent back with the assistant message's tool part answered picks the continuation to stream.
 */

/** The tool the frontend runs: it asks the user, as the upstream demo's user_confirm does. */
export const CONFIRM_TOOL = 'user_confirm';
/** The tool the server runs once the user approves it, and the approval it asks for. */
export const APPROVED_TOOL = 'delete_file';
export const APPROVAL_ID = 'approval-delete';

/**
 * The scenario as a request answers it: a request whose last message is the assistant's with
 * the user_confirm call answered (AI SDK 5: a tool part `output-available`; v4: a tool
 * invocation `result`) continues the client-tool run, as the answer says, and one with the
 * delete_file call's approval answered (a part `approval-responded`) the tool-approval run,
 * whatever scenario the body still names (a frontend sends its body fields again with the
 * conversation).
 */
export function continuation(scenarios: readonly ProviderScenario[]) {
  return (scenario: ProviderScenario, body: unknown): ProviderScenario => {
    const parts = lastAssistantParts(body);
    const approved = approvalAnswer(parts);
    const answer = confirmAnswer(parts);
    const id =
      approved !== undefined
        ? `tool-approval-${approved ? 'approved' : 'denied'}`
        : answer !== undefined
          ? `client-tool-${answer === 'yes' ? 'confirmed' : 'declined'}`
          : undefined;
    return scenarios.find((s) => s.id === id) ?? scenario;
  };
}

/** The parts of the request's last message when it is the assistant's. */
function lastAssistantParts(body: unknown): unknown[] {
  const messages = isJsonObject(body) && Array.isArray(body['messages']) ? body['messages'] : [];
  const last: unknown = messages.at(-1);
  if (!isJsonObject(last) || last['role'] !== 'assistant') return [];
  return Array.isArray(last['parts']) ? (last['parts'] as unknown[]) : [];
}

/** Whether the delete_file call was approved, if the parts answer its approval. */
function approvalAnswer(parts: readonly unknown[]): boolean | undefined {
  for (const part of parts) {
    if (!isJsonObject(part) || part['type'] !== `tool-${APPROVED_TOOL}` || part['state'] !== 'approval-responded')
      continue;
    const approval = part['approval'];
    return isJsonObject(approval) && approval['id'] === APPROVAL_ID && approval['approved'] === true;
  }
  return undefined;
}

/** The answer to user_confirm the parts carry, lower-cased, if they carry one. */
function confirmAnswer(parts: readonly unknown[]): string | undefined {
  for (const part of parts) {
    if (!isJsonObject(part)) continue;
    const invocation = isJsonObject(part['toolInvocation']) ? part['toolInvocation'] : undefined;
    const answer =
      part['type'] === `tool-${CONFIRM_TOOL}` && part['state'] === 'output-available'
        ? part['output']
        : invocation?.['toolName'] === CONFIRM_TOOL && invocation['state'] === 'result'
          ? invocation['result']
          : undefined;
    if (answer !== undefined) return typeof answer === 'string' ? answer.trim().toLowerCase() : '';
  }
  return undefined;
}
