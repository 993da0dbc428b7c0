import { NO_EXTRAS } from '../../envelope/types';
import { unified, type StreamIds, type UnifiedEvent } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject, jsonKind } from '../../json/values';
import { integerField, objectField, stringField, type ProviderEventContext } from '../provider/event-context';
import { MessageClock } from '../provider/message-summary';
import { AssistantContent } from '../provider/assistant-content';
import type { ClientCall } from './client-calls';
import { CONTENT, type Channel } from './vocabulary';

/**
 * One response of an Ollama stream: the lines from its first to its done line, one message
 * (docs/protocols/ollama.md). Its text and thinking stream into one open block at a time, which
 * the other channel, a tool call or the done line closes; each tool call arrives whole and
 * becomes a whole call (start, input, stop). Ollama names no message, block or call, so the
 * ids are made up: the response's number in the stream and the block's in the response.
 */
export class OllamaResponse {
  readonly clock: MessageClock;
  /** The model its first line named (a later line naming another is `ollama.model-changed`, once). */
  readonly model: string;
  modelChangeReported = false;
  private open: Channel | undefined;
  private deltaEvent: UnifiedEvent | undefined;
  private blocks = 0;
  /** Its content text, for the assistant message a client sends back with its tool results. */
  readonly content = new AssistantContent();
  /** Its tool calls, which the client runs (Ollama runs none): client-calls.ts. */
  readonly calls: ClientCall[] = [];

  constructor(
    /** Its number in the stream (a capture may hold several responses), for the block ids. */
    private readonly index: number,
    model: string,
    startedAt: number,
  ) {
    this.model = model;
    this.clock = new MessageClock(startedAt);
    this.clock.model = model;
  }

  ids(extra: Partial<StreamIds> = {}): StreamIds {
    return { block_id: `${this.index}.${this.blocks}`, ...extra };
  }

  /**
   * Text of one channel, streamed into the open block of that channel (the other one closes
   * first); `extras` are what the line says of these tokens (their logprobs).
   */
  write(ctx: ProviderEventContext, channel: Channel, text: string, extras: Record<string, unknown> = NO_EXTRAS): void {
    if (text === '') return;
    this.clock.token(ctx.frame.receivedAt);
    if (this.open !== channel) {
      this.close(ctx);
      this.blocks++;
      this.open = channel;
      ctx.emit(
        { type: channel.kind, final: false, delta: '', extras: {}, control: 'block-open' },
        unified('stream.content_block_start', this.ids(), { kind: channel.block, channel: channel.channel }),
      );
      this.deltaEvent = unified('stream.content_block_delta', this.ids(), {
        kind: channel.delta,
        channel: channel.channel,
      });
    }
    ctx.envelope(channel.kind, false, text, extras, undefined, this.deltaEvent);
    if (channel === CONTENT) this.content.add(text);
  }

  /** The open text or thinking block ends: another channel, a tool call or the done line came. */
  close(ctx: ProviderEventContext): void {
    const open = this.open;
    if (!open) return;
    this.open = undefined;
    this.deltaEvent = undefined;
    ctx.envelope(
      open.kind,
      true,
      '',
      NO_EXTRAS,
      undefined,
      unified('stream.content_block_stop', this.ids(), { kind: open.block, channel: open.channel }),
    );
  }

  /**
   * One entry of `message.tool_calls`: `{function: {name, arguments, index?}, id?}`, whole in
   * its line, its arguments an object already. Its start and its arguments are shown as the
   * provider events they are, then the call itself (its arguments as JSON text). Arguments that
   * are no object cannot be passed to a tool: `provider.tool-args-invalid`.
   */
  toolCall(ctx: ProviderEventContext, call: Record<string, unknown>, madeUpId: () => string): void {
    this.close(ctx);
    this.clock.token(ctx.frame.receivedAt);
    const fn = objectField(call, 'function');
    const name = stringField(fn, 'name');
    const sentId = stringField(call, 'id');
    const id = sentId || madeUpId();
    const args = fn['arguments'];
    this.calls.push({ id, sentId, name, args: args ?? {} });
    const text = jsonText(args ?? {});
    if (args !== undefined && !isJsonObject(args))
      ctx.report(
        'provider.tool-args-invalid',
        `The tool call ${name || '(unnamed)'} in line ${ctx.frame.seq} has arguments that are a JSON ${jsonKind(args)}, not an object, so a client cannot call the tool with them: ${text.slice(0, 200)}`,
      );
    const ids = this.ids({ tool_call_id: id, content_index: integerField(fn, 'index') });
    const tool = { kind: 'client', name } as const;
    ctx.wire('tool_call', call, unified('stream.tool_call_start', ids, { kind: 'function', tool }));
    ctx.wire(
      'tool_call.arguments',
      { arguments: args ?? null },
      unified('stream.tool_call_input.delta', ids, { kind: 'input_json_delta' }),
      text,
    );
    ctx.emit(
      { type: KIND.tool_call, final: true, delta: text, extras: { id, name } },
      unified('stream.tool_call_stop', ids, { kind: 'function', tool, phase: 'completed' }),
    );
  }

  /** The message summary envelope: the response is over (its done line, an error, or the stream's end). */
  summarise(ctx: ProviderEventContext): void {
    ctx.emit({
      type: KIND.message,
      final: true,
      delta: jsonText(this.clock.summary(ctx.frame.receivedAt)),
      extras: {},
    });
  }
}
