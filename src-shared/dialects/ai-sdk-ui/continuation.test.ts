import { describe, expect, it } from 'vitest';
import { readProviderFixture } from '../../../src-main/testing/provider-streams';
import { decodeBytes } from '../../pipeline/session-decoder';
import type { PendingTool } from '../../reconstruct/types';
import { aiSdkContinuation } from './continuation';

const user = { id: 'msg-user-1', role: 'user', parts: [{ type: 'text', text: 'Delete my draft' }] };
const previousBody = JSON.stringify({
  id: 'chat-1',
  messages: [user],
  scenario: 'client-tool',
  trigger: 'submit-message',
});

/** The pause the decoder emits for a fixture: its calls and its whole payload. */
function pauseOf(name: string): { calls: PendingTool[]; pause: unknown } {
  const block = decodeBytes(readProviderFixture(name)).blocks.find((b) => b.kind === 'awaiting_frontend_tools');
  return { calls: block?.pendingTools ?? [], pause: block?.parsed };
}

function continued(
  name: string,
  answers: { toolUseId: string; content: string; isError?: boolean; approved?: boolean }[],
  body = previousBody,
) {
  const { calls, pause } = pauseOf(name);
  return JSON.parse(aiSdkContinuation.continueBody({ previousBody: body, calls, answers, pause })) as Record<
    string,
    unknown
  > & { messages: Record<string, unknown>[] };
}

describe('the AI SDK continuation of a run paused on a client-side tool', () => {
  it('AI SDK 5: the body as sent, its messages followed by the assistant message with the tool part answered', () => {
    const body = continued('ai-sdk-ui/client-tool.sse', [{ toolUseId: 'call_confirm', content: 'yes' }]);
    expect(body).toMatchObject({ id: 'chat-1', scenario: 'client-tool', trigger: 'submit-message' });
    expect(body.messages).toEqual([
      user,
      {
        id: 'msg-client-tool',
        role: 'assistant',
        // The metadata of the start and finish parts, merged as a frontend merges them.
        metadata: { model: 'demo-model', totalUsage: { inputTokens: 52, outputTokens: 30, totalTokens: 82 } },
        parts: [
          { type: 'step-start' },
          { type: 'text', text: 'I can delete the draft "Q3 plan" for you.', state: 'done' },
          {
            type: 'tool-user_confirm',
            toolCallId: 'call_confirm',
            state: 'output-available',
            input: { message: 'Delete the draft "Q3 plan"?' },
            output: 'yes',
          },
        ],
      },
    ]);
  });

  it('an answer that is a JSON object is the output object; an error answer is output-error', () => {
    const json = continued('ai-sdk-ui/client-tool.sse', [{ toolUseId: 'call_confirm', content: '{"ok":true}' }]);
    expect(json.messages[1]?.['parts']).toContainEqual(expect.objectContaining({ output: { ok: true } }));
    const failed = continued('ai-sdk-ui/client-tool.sse', [
      { toolUseId: 'call_confirm', content: 'denied', isError: true },
    ]);
    expect(failed.messages[1]?.['parts']).toContainEqual(
      expect.objectContaining({ state: 'output-error', errorText: 'denied' }),
    );
  });

  it('a second pause of the same message adds its parts to that message instead of repeating it', () => {
    const first = continued('ai-sdk-ui/client-tool.sse', [{ toolUseId: 'call_confirm', content: 'yes' }]);
    const again = continued(
      'ai-sdk-ui/client-tool.sse',
      [{ toolUseId: 'call_confirm', content: 'no' }],
      JSON.stringify(first),
    );
    expect(again.messages).toHaveLength(2);
    expect((again.messages[1]?.['parts'] as unknown[]).length).toBe(6);
  });

  it('v4: the assistant message with its text as content, and the tool invocation a result, in parts and toolInvocations', () => {
    const body = continued('ai-sdk-ui/client-tool.txt', [{ toolUseId: 'call_confirm', content: 'yes' }]);
    const assistant = body.messages[1];
    expect(assistant).toMatchObject({
      id: 'msg-client-tool',
      role: 'assistant',
      content: 'I can delete the draft "Q3 plan" for you.',
    });
    const invocation = {
      state: 'result',
      step: 0,
      toolCallId: 'call_confirm',
      toolName: 'user_confirm',
      args: { message: 'Delete the draft "Q3 plan"?' },
      result: 'yes',
    };
    expect(assistant?.['toolInvocations']).toEqual([invocation]);
    expect(assistant?.['parts']).toContainEqual({ type: 'tool-invocation', toolInvocation: invocation });
  });

  it('a pause that carries no message: the calls alone make the assistant message', () => {
    const { calls } = pauseOf('ai-sdk-ui/client-tool.sse');
    const body = JSON.parse(
      aiSdkContinuation.continueBody({
        previousBody,
        calls,
        answers: [{ toolUseId: 'call_confirm', content: 'yes' }],
        pause: {},
      }),
    ) as { messages: unknown[] };
    expect(body.messages[1]).toMatchObject({
      role: 'assistant',
      parts: [{ type: 'tool-user_confirm', state: 'output-available', output: 'yes' }],
    });
  });

  it('an approval: the part approval-responded, with the approval’s id, whether approved, and the reason given', () => {
    const approved = continued('ai-sdk-ui/tool-approval.sse', [
      { toolUseId: 'call_delete', content: '', approved: true },
    ]);
    expect((approved.messages[1]?.['parts'] as unknown[]).at(-1)).toEqual({
      type: 'tool-delete_file',
      toolCallId: 'call_delete',
      state: 'approval-responded',
      input: { path: 'notes.txt' },
      approval: { id: 'approval-delete', approved: true },
    });
    const denied = continued('ai-sdk-ui/tool-approval.sse', [
      { toolUseId: 'call_delete', content: 'not now', approved: false },
    ]);
    expect((denied.messages[1]?.['parts'] as unknown[]).at(-1)).toMatchObject({
      state: 'approval-responded',
      approval: { id: 'approval-delete', approved: false, reason: 'not now' },
    });
    // Without the message, the pending call's approval id answers.
    const { calls } = pauseOf('ai-sdk-ui/tool-approval.sse');
    const bare = JSON.parse(
      aiSdkContinuation.continueBody({
        previousBody,
        calls,
        answers: [{ toolUseId: 'call_delete', content: '', approved: true }],
        pause: {},
      }),
    ) as { messages: unknown[] };
    expect(bare.messages[1]).toMatchObject({
      parts: [{ state: 'approval-responded', approval: { id: 'approval-delete', approved: true } }],
    });
  });

  it('a previous body without messages cannot be continued, and says why', () => {
    const { calls, pause } = pauseOf('ai-sdk-ui/client-tool.sse');
    expect(() =>
      aiSdkContinuation.continueBody({ previousBody: '{"prompt":"hi"}', calls, answers: [], pause }),
    ).toThrow(/no JSON body with a messages array/);
  });
});
