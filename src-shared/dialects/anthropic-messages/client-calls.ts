import { isJsonObject, parseJson } from '../../json/values';
import {
  answerEntries,
  answersInEntries,
  answerText,
  emitClientPause,
  pausedConversation,
} from '../provider/conversation';
import type { ProviderEventContext } from '../provider/event-context';
import { TextChunks } from '../provider/text-chunks';
import type { ClientToolContinuation } from '../types';

/*
 * The Messages API runs its server tools, not the client's `tool_use` blocks: a message that
 * stops with `stop_reason: "tool_use"` waits for their results. The stream's end says so as an
 * `awaiting_frontend_tools` pause, and the answers continue the run as the API's tool-use
 * guide does: the request's messages, then the assistant message with every content block as
 * it streamed (thinking with its signature, which the API checks; server tool calls and their
 * results), then a user message of one `tool_result` per call. A message that stops with
 * `pause_turn` (the API paused a long turn of server tools) waits for the client too, with no
 * call to answer: it continues the turn by sending the assistant message back as it is.
 */

/** Characters of content kept for the assistant message; past it the pause says it was not kept. */
const MAX_KEPT_CHARS = 1024 * 1024;

/** The field a block's streamed text goes to: text and thinking deltas, a compaction's summary. */
const STREAMED_FIELD: ReadonlyMap<unknown, string> = new Map([
  ['text', 'text'],
  ['thinking', 'thinking'],
  ['compaction', 'content'],
]);

/**
 * The content blocks of the message being streamed, as the client's assistant message carries
 * them back: each block's start, its text, thinking, signature and compaction deltas appended,
 * its tool input parsed at its stop, its citations added. Past MAX_KEPT_CHARS it keeps nothing
 * more and says so (a continuation cannot send a message cut short).
 */
export class AssistantBlocks {
  /** The client's calls (`tool_use` blocks), kept whatever the size of the rest. */
  readonly calls: { id: string; name: string; input: unknown }[] = [];
  /** By the stream's block index (a map: an index is the server's number, any size). */
  private blocks = new Map<number, { block: Record<string, unknown>; streamed: TextChunks }>();
  private chars = 0;
  over = false;

  /** A block started: kept, with where its text goes (undefined past what is kept). */
  start(index: number, block: Record<string, unknown>): TextChunks | undefined {
    if (this.over) return undefined;
    const streamed = new TextChunks();
    this.blocks.set(index, { block: { ...block }, streamed });
    return streamed;
  }

  /** A text or thinking delta, into where its block's text goes (the hot path: no lookup). */
  text(kept: TextChunks | undefined, text: string): void {
    if (this.over) return;
    this.chars += text.length;
    if (this.chars > MAX_KEPT_CHARS) this.drop();
    else kept?.push(text);
  }

  /** A field appended to (a thinking block's signature). */
  append(index: number, field: string, text: string): void {
    const block = this.blocks.get(index)?.block;
    if (block) block[field] = `${typeof block[field] === 'string' ? block[field] : ''}${text}`;
  }

  /** Fields set whole (a compaction delta's `encrypted_content`). */
  assign(index: number, fields: Record<string, unknown>): void {
    const block = this.blocks.get(index)?.block;
    if (block) Object.assign(block, fields);
  }

  citation(index: number, citation: unknown): void {
    const block = this.blocks.get(index)?.block;
    if (!block) return;
    const citations = block['citations'];
    if (Array.isArray(citations)) citations.push(citation);
    else block['citations'] = [citation];
  }

  /** The block stopped: its text so far is joined (TextChunks). */
  stop(index: number): void {
    this.blocks.get(index)?.streamed.seal();
  }

  /** A tool use block's input as JSON text, once its stop has it; a client's call is kept, whatever the size. */
  input(index: number, input: string, call?: { id: string; name: string }): void {
    const parsed = parseJson(input);
    const value = parsed.ok ? parsed.value : input;
    if (call) this.calls.push({ ...call, input: value });
    const block = this.blocks.get(index)?.block;
    if (block) block['input'] = value;
  }

  /** The message's content blocks in index order, their streamed text joined; null when more than is kept. */
  content(): Record<string, unknown>[] | null {
    if (this.over) return null;
    return [...this.blocks.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, { block, streamed }]) => {
        const field = STREAMED_FIELD.get(block['type']);
        if (!field) return block;
        return { ...block, [field]: `${typeof block[field] === 'string' ? block[field] : ''}${streamed.text()}` };
      });
  }

  private drop(): void {
    this.over = true;
    this.blocks.clear();
  }
}

/**
 * The message stopped on `tool_use` with calls for its client, or on `pause_turn`: the pause,
 * with the assistant content to send back (and, for `pause_turn`, no call to answer).
 */
export function pauseOnClientCalls(
  ctx: ProviderEventContext,
  messageId: string,
  content: AssistantBlocks,
  pauseTurn = false,
): void {
  const { calls } = content;
  if (calls.length === 0 && !pauseTurn) return;
  const blocks = content.content();
  const tools = calls.map((call) => ({
    tool_use_id: call.id,
    name: call.name,
    input: isJsonObject(call.input) ? call.input : {},
  }));
  // Past what is kept, no message: a continuation says why it cannot send one.
  const message = blocks === null ? null : { role: 'assistant', content: blocks };
  const continuation = pauseTurn ? { message, pause_turn: true } : { message };
  emitClientPause(ctx, { message_id: messageId }, tools, continuation, { id: messageId });
}

/**
 * The request that continues the run: the body that paused, its `messages` followed by the
 * assistant message and a user message of one `tool_result` per answer, in the order the calls
 * came (`is_error` for an answer marked as an error); after `pause_turn`, with no call to
 * answer, the assistant message alone (the API goes on with the turn it paused).
 */
export const anthropicContinuation: ClientToolContinuation = {
  continueBody({ previousBody, calls, answers, pause }) {
    if (isJsonObject(pause) && pause['message'] === null)
      throw new Error(
        `The message that paused streamed more than ${MAX_KEPT_CHARS / 1024 / 1024} MiB of content, more than the inspector keeps to send back; continue this run from your own client.`,
      );
    const { body, messages, message } = pausedConversation(previousBody, pause, '');
    const results = answerEntries(calls, answers, (call, answer) => ({
      type: 'tool_result',
      tool_use_id: call.toolUseId,
      content: answer.content,
      ...(answer.isError ? { is_error: true } : {}),
    }));
    const answered = results.length > 0 ? [{ role: 'user', content: results }] : [];
    return JSON.stringify({ ...body, messages: [...messages, message, ...answered] });
  },

  /** The `tool_result` blocks of the conversation's user messages. */
  answersIn(body) {
    return answersInEntries(body, 'messages', (message) =>
      message['role'] === 'user' && Array.isArray(message['content'])
        ? (message['content'] as unknown[]).flatMap((block) =>
            isJsonObject(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string'
              ? [
                  {
                    toolUseId: block['tool_use_id'],
                    content: answerText(block['content']),
                    ...(block['is_error'] === true ? { isError: true } : {}),
                  },
                ]
              : [],
          )
        : [],
    );
  },
};
