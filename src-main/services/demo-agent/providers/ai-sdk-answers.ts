import { aiSdkContinuation } from '../../../../src-shared/dialects/ai-sdk-ui/continuation';
import type { ProviderScenario } from './types';

/**
 * How the demo's AI SDK chat reads a frontend's answer (ai-sdk-scenarios.ts): the conversation
 * sent back with the assistant message's tool part answered picks the continuation to stream.
 */

/** The tool the frontend runs (it asks the user, as the upstream demo's user_confirm does), and its call. */
export const CONFIRM_TOOL = 'user_confirm';
export const CONFIRM_CALL = 'call_confirm';
/** The tool the server runs once the user approves it, its call, and the approval it asks for. */
export const APPROVED_TOOL = 'delete_file';
export const APPROVAL_CALL = 'call_delete';
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
    // What the frontend answered, read back as the dialect reads a continuation it recorded.
    const answers = aiSdkContinuation.answersIn?.(JSON.stringify(body ?? null), []) ?? [];
    const approval = answers.find((a) => a.toolUseId === APPROVAL_CALL && a.approved !== undefined);
    const confirm = answers.find((a) => a.toolUseId === CONFIRM_CALL && a.approved === undefined && !a.isError);
    const id = approval
      ? `tool-approval-${approval.approved ? 'approved' : 'denied'}`
      : confirm
        ? `client-tool-${confirm.content.trim().toLowerCase() === 'yes' ? 'confirmed' : 'declined'}`
        : undefined;
    return scenarios.find((s) => s.id === id) ?? scenario;
  };
}
