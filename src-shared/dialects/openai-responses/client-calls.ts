import { isJsonObject, parseJson } from '../../json/values';
import type { ProviderEventContext } from '../provider/event-context';
import { answerEntries, answersInEntries, answerText, emitClientPause } from '../provider/conversation';
import type { ClientToolAnswer, ClientToolContinuation } from '../types';

/*
 * The Responses API runs its built-in and MCP tools itself, but a function or custom tool is
 * the client's (a custom tool its request defined: declared-tools.ts), and so are its local
 * shell, shell and apply_patch tools (the client runs the command or applies the patch) and its
 * computer tool (the client does the actions and sends a screenshot): a response that
 * completes with such calls waits for their outputs. An MCP call that needs the user's
 * approval (`mcp_approval_request`) waits for the client too, for an approval, not an output. The response's end says so as an
 * `awaiting_frontend_tools` pause, and the answers continue the run as the API's guide does:
 * the request again, `previous_response_id` naming the response, its `input` one output item
 * per call (`function_call_output`, `custom_tool_call_output`, `local_shell_call_output`,
 * `shell_call_output`, `apply_patch_call_output`, `computer_call_output`) and one
 * `mcp_approval_response` per approval request. A response the API did not keep
 * (`"store": false`) has no id to follow: its continuation sends the conversation again, as
 * the API's guide to stateless use does (the request's input, the response's output items, its
 * encrypted reasoning among them, then the answers).
 */

/** A call of the response the client answers, or an MCP approval request, once its item is done. */
export interface ClientCall {
  type:
    | 'function_call'
    | 'custom_tool_call'
    | 'local_shell_call'
    | 'shell_call'
    | 'apply_patch_call'
    | 'computer_call'
    | 'mcp_approval_request';
  /** A call's `call_id`; an approval request's item id (what its response names). */
  callId: string;
  name: string;
  /** Its arguments (a function's or MCP tool's JSON text), input (a custom tool's text), or what to run (JSON). */
  input: string;
  /** A computer call's `pending_safety_checks`: the continuation acknowledges them (the one who answers saw them in its input). */
  safetyChecks?: readonly unknown[];
}

/** A response that completed with calls for its client: what its pause names, and a response not stored keeps its output items. */
export interface PausedResponse {
  responseId: string;
  calls: readonly ClientCall[];
  /** The response's `output` as response.completed gave it, when the API did not store it (`"store": false`). */
  output?: readonly unknown[];
}

const OUTPUT_ITEM: Readonly<Record<ClientCall['type'], string>> = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  local_shell_call: 'local_shell_call_output',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
  computer_call: 'computer_call_output',
  mcp_approval_request: 'mcp_approval_response',
};
const APPROVAL_RESPONSE = OUTPUT_ITEM.mcp_approval_request;
const COMPUTER_OUTPUT = OUTPUT_ITEM.computer_call;
/** What a computer call is answered with (the pause's `answer_hint`, and the refusal of anything else). */
const SCREENSHOT_HINT = "a screenshot: its URL (https://…), a data:image/… URL or an uploaded file's id (file-…)";

/** What the answer panel shows as the call's input: a function's arguments as an object, a custom tool's text under `input`. */
function inputOf(call: ClientCall): Record<string, unknown> {
  if (call.type === 'custom_tool_call') return { input: call.input };
  const parsed = parseJson(call.input);
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : {};
}

/** The response completed with calls for its client: the pause, naming the response and each call's item type. */
export function pauseOnClientCalls(ctx: ProviderEventContext, { responseId, calls, output }: PausedResponse): void {
  if (calls.length === 0) return;
  const tools = calls.map((call) => ({
    tool_use_id: call.callId,
    name: call.name,
    input: inputOf(call),
    // An approval request is answered by its own id.
    ...(call.type === 'mcp_approval_request' ? { approval_id: call.callId } : {}),
    ...(call.type === 'computer_call' ? { answer_hint: SCREENSHOT_HINT } : {}),
  }));
  const outputs = Object.fromEntries(calls.map((call) => [call.callId, OUTPUT_ITEM[call.type]]));
  const checked = calls.filter((call) => call.safetyChecks !== undefined);
  const continuation = {
    response_id: responseId,
    outputs,
    ...(checked.length > 0
      ? { safety_checks: Object.fromEntries(checked.map((c) => [c.callId, c.safetyChecks])) }
      : {}),
    ...(output ? { output } : {}),
  };
  emitClientPause(ctx, { response_id: responseId }, tools, continuation, { id: responseId });
}

/**
 * The request that continues the run: the body that paused with `previous_response_id` and,
 * as its `input`, an output item per answer in the order the calls came (an approval request's
 * `mcp_approval_response`, approving or not, with the reason given). A body with
 * `"store": false` names no response (the API kept none): its `input` is the conversation
 * again (resentConversation). A function's or custom tool's output has no error flag: an error
 * is sent as its text (a shell's and a patch's say they failed, see outputItem).
 */
export const openAiResponsesContinuation: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers, pause }) {
    const parsed = parseJson(previousBody);
    const body = parsed.ok ? parsed.value : undefined;
    if (!isJsonObject(body))
      throw new Error('The request that paused has no JSON body, and the Responses API continues a run with it.');
    const responseId = isJsonObject(pause) && typeof pause['response_id'] === 'string' ? pause['response_id'] : '';
    const outputs = isJsonObject(pause) && isJsonObject(pause['outputs']) ? pause['outputs'] : {};
    const safetyChecks = isJsonObject(pause) && isJsonObject(pause['safety_checks']) ? pause['safety_checks'] : {};
    if (responseId === '')
      throw new Error('The pause does not name the response its continuation follows; decode it again.');
    const input = answerEntries(calls, answers, (call, answer) => {
      const output = outputs[call.toolUseId];
      const type = typeof output === 'string' ? output : 'function_call_output';
      if (type === APPROVAL_RESPONSE)
        return {
          type,
          approval_request_id: call.toolUseId,
          approve: answer.approved === true,
          ...(answer.content !== '' ? { reason: answer.content } : {}),
        };
      if (type === COMPUTER_OUTPUT) return computerOutput(call.toolUseId, answer, safetyChecks[call.toolUseId]);
      return outputItem(type, call.toolUseId, answer);
    });
    if (body['store'] === false) return JSON.stringify({ ...body, input: resentConversation(body, pause, input) });
    return JSON.stringify({ ...body, previous_response_id: responseId, input });
  },

  /** The output items and approval responses of the request's `input`. */
  answersIn(body) {
    return answersInEntries(body, 'input', (item) => {
      if (item['type'] === APPROVAL_RESPONSE && typeof item['approval_request_id'] === 'string') {
        const reason = item['reason'];
        return [
          {
            toolUseId: item['approval_request_id'],
            content: typeof reason === 'string' ? reason : '',
            approved: item['approve'] === true,
          },
        ];
      }
      const output = Object.values(OUTPUT_ITEM).includes(item['type'] as string) && typeof item['call_id'] === 'string';
      return output ? [answerOf(item['call_id'] as string, item)] : [];
    });
  },
};

/**
 * The `input` that continues a response the API did not store: the paused request's input (a
 * string is the user's message), the response's output items as it gave them, then the
 * answers. A reasoning item without its `encrypted_content` is left out: the API would look its
 * id up among stored items and refuse the request (vercel/ai#7543); the model reasons again.
 */
function resentConversation(body: Record<string, unknown>, pause: unknown, answers: readonly unknown[]): unknown[] {
  const output: readonly unknown[] | undefined =
    isJsonObject(pause) && Array.isArray(pause['output']) ? pause['output'] : undefined;
  if (!output)
    throw new Error(
      'The request that paused says "store": false, so the API kept no response to continue from, and the pause carries no output items of the response to send back (its response.completed had none, or it was decoded by an older version: decode it again).',
    );
  const previous = body['input'];
  const input: readonly unknown[] =
    typeof previous === 'string' ? [{ role: 'user', content: previous }] : Array.isArray(previous) ? previous : [];
  const resent = output.filter(
    (item) => !(isJsonObject(item) && item['type'] === 'reasoning' && typeof item['encrypted_content'] !== 'string'),
  );
  return [...input, ...resent, ...answers];
}

/**
 * The output item answering a call: a shell's is the result of its command (an error as its
 * stderr and exit code 1), a patch's says whether it applied; the others carry the text.
 */
function outputItem(type: string, callId: string, answer: ClientToolAnswer): Record<string, unknown> {
  const failed = answer.isError === true;
  if (type === 'shell_call_output') {
    const result = { stdout: failed ? '' : answer.content, stderr: failed ? answer.content : '' };
    return { type, call_id: callId, output: [{ ...result, outcome: { type: 'exit', exit_code: failed ? 1 : 0 } }] };
  }
  if (type === 'apply_patch_call_output')
    return { type, call_id: callId, status: failed ? 'failed' : 'completed', output: answer.content };
  return { type, call_id: callId, output: answer.content };
}

/**
 * A computer call's output: the screenshot taken after its actions, by URL (`https:` or a
 * `data:image/…` URL) or an uploaded file's id, with the call's safety checks acknowledged.
 * The API takes nothing else: an answer that is not a screenshot, or an error, cannot be sent.
 */
function computerOutput(callId: string, answer: ClientToolAnswer, checks: unknown): Record<string, unknown> {
  const screenshot = answer.content.trim();
  const field = /^(https?:|data:image\/)/i.test(screenshot)
    ? 'image_url'
    : /^file-\S+$/.test(screenshot)
      ? 'file_id'
      : '';
  if (answer.isError === true || field === '')
    throw new Error(
      `Computer call ${callId} is answered with ${SCREENSHOT_HINT}; the API takes nothing else (no error, no text).`,
    );
  return {
    type: COMPUTER_OUTPUT,
    call_id: callId,
    output: { type: 'computer_screenshot', [field]: screenshot },
    ...(Array.isArray(checks) && checks.length > 0 ? { acknowledged_safety_checks: checks } : {}),
  };
}

/** The answer an output item carries, read back (outputItem's and computerOutput's inverse). */
function answerOf(toolUseId: string, item: Record<string, unknown>): ClientToolAnswer {
  const output = item['output'];
  if (item['type'] === COMPUTER_OUTPUT && isJsonObject(output))
    return { toolUseId, content: answerText(output['image_url'] ?? output['file_id']) };
  if (item['type'] === 'shell_call_output' && Array.isArray(output)) {
    const results = output.filter(isJsonObject);
    const failed = results.some((r) => isJsonObject(r['outcome']) && r['outcome']['exit_code'] !== 0);
    const text = results.map((r) => answerText(r[failed ? 'stderr' : 'stdout'])).join('');
    return { toolUseId, content: text, ...(failed ? { isError: true } : {}) };
  }
  const failed = item['type'] === 'apply_patch_call_output' && item['status'] === 'failed';
  return { toolUseId, content: answerText(output), ...(failed ? { isError: true } : {}) };
}
