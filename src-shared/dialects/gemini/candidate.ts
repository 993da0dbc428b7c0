import { NO_EXTRAS } from '../../envelope/types';
import { unified, type ContentChannel, type StreamIds, type UnifiedEvent } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { jsonText } from '../../json/tree';
import { isJsonObject } from '../../json/values';
import { base64DecodedLength } from '../../recording/base64';
import { objectField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { MessageClock } from '../provider/message-summary';
import type { CodeHandoff } from './code-handoff';
import { ModelParts } from './client-calls';
import { PartialArguments } from './partial-args';
import { partKind, type PartKind } from './vocabulary';

/** Streamed text kinds: the model's answer and its thoughts (`thought: true`). */
const STREAMED = {
  text: { type: KIND.text, channel: 'output_text', kind: 'text' },
  thinking: { type: KIND.thinking, channel: 'reasoning', kind: 'thought' },
} as const satisfies Record<string, { type: string; channel: ContentChannel; kind: string }>;

type Streamed = keyof typeof STREAMED;

/** A function call whose arguments stream as `partialArgs` (Vertex AI), until a part without `willContinue`. */
interface StreamingCall {
  id: string;
  /** The id its part sent ('' for none: `id` is then made up). */
  sentId: string;
  /** Its first part's thoughtSignature, sent back with it. */
  signature: string | undefined;
  name: string;
  args: PartialArguments;
  at: ProviderEventContext['at'];
  frame: number;
}

/** What a candidate asks of the decoder that holds it: ids unique in the stream, and reports once per key. */
export interface CandidateHost {
  newId(prefix: string): string;
  reportOnce(ctx: ProviderEventContext, key: string, message: string): void;
}

/**
 * One candidate of a response (`candidates[].index`): one message, with its parts decoded in
 * order as they arrive over the chunks. Consecutive text parts (or thought parts) are one
 * streamed block, which a part of another kind or the finish closes; a function call, code
 * and its result, an image each become their own envelopes. docs/protocols/gemini.md maps
 * every part onto the unified surface.
 */
export class Candidate {
  readonly clock: MessageClock;
  private streamed: Streamed | undefined;
  private deltaEvent: UnifiedEvent | undefined;
  private blocks = 0;
  private call: StreamingCall | undefined;
  /** The code execution result still open, so that images after it attach to it. */
  private codeResult: string | undefined;
  private lastCode: string | undefined;
  /** The frame whose finishReason finished this candidate. */
  finishedAt: number | undefined;
  /** Whether content after its finish was reported (gemini.after-finish, once). */
  lateReported = false;
  /** Whether the URL context tool fetched pages for it, and its grounding chunks so far (grounding.ts). */
  fetchedUrls = false;
  readonly groundingChunks: unknown[] = [];
  /** The last STOP that handed the turn to code it asked to run (code-handoff.ts). */
  handoff: CodeHandoff | undefined;
  /** Its parts as a client sends them back with its function results (client-calls.ts). */
  readonly model = new ModelParts();

  /** The one message of a response that has no candidate: a blocked prompt, or one cut after chunks of usage alone. */
  static summaryOnly(responseId: string, startedAt: number, host: CandidateHost, status: string): Candidate {
    const summary = new Candidate(0, responseId, responseId, startedAt, host);
    summary.clock.status = status;
    return summary;
  }

  constructor(
    readonly index: number,
    readonly agent: string,
    private readonly responseId: string,
    startedAt: number,
    private readonly host: CandidateHost,
  ) {
    this.clock = new MessageClock(startedAt);
    this.clock.id = agent;
  }

  ids(extra: Partial<StreamIds> = {}): StreamIds {
    return {
      response_id: this.responseId,
      output_index: this.index,
      block_id: `${this.index}.${this.blocks}`,
      ...extra,
    };
  }

  /** One part of `content.parts`, in order. */
  part(ctx: ProviderEventContext, part: unknown): void {
    if (!isJsonObject(part)) {
      this.host.reportOnce(
        ctx,
        'part:non-object',
        `A part of candidate ${this.index} in chunk ${ctx.frame.seq} is not an object; kept as a provider event.`,
      );
      ctx.wire('part', { part });
      return;
    }
    const kind = partKind(part);
    this.endPending(ctx, kind);
    if (kind !== 'functionCall') this.model.part(part);
    switch (kind) {
      case 'text':
        if (typeof part['text'] === 'string') this.text(ctx, part['text'], part['thought'] === true);
        break;
      case 'functionCall':
        this.closeStreamed(ctx);
        this.functionCall(ctx, objectField(part, 'functionCall'), part);
        break;
      case 'executableCode':
        this.closeStreamed(ctx);
        this.executableCode(ctx, objectField(part, 'executableCode'), part['thought'] === true);
        break;
      case 'codeExecutionResult':
        this.closeStreamed(ctx);
        this.codeExecutionResult(ctx, objectField(part, 'codeExecutionResult'), part['thought'] === true);
        break;
      case 'inlineData':
        this.inlineData(ctx, objectField(part, 'inlineData'));
        break;
      default:
        this.closeStreamed(ctx);
        this.otherPart(ctx, part, kind);
    }
    if (typeof part['thoughtSignature'] === 'string')
      ctx.wire(
        'thoughtSignature',
        { thoughtSignature: part['thoughtSignature'], part: kind ?? 'unknown' },
        unified('stream.content_block_delta', this.ids(), { kind: 'signature_delta', channel: 'reasoning' }),
      );
  }

  /**
   * What a part of another kind ends: a streamed function call still waiting for parts, and
   * the code result images attach to (unless the part is such an image).
   */
  private endPending(ctx: ProviderEventContext, kind: PartKind | undefined): void {
    if (kind !== 'functionCall' && this.call)
      this.endCall(ctx, `a ${kind ?? 'different'} part came (chunk ${ctx.frame.seq})`);
    if (kind !== 'inlineData') this.closeCodeResult(ctx);
  }

  /** A text part (`{"text": …}` with nothing else) read without parsing its chunk (RecentTextChunk). */
  textPart(ctx: ProviderEventContext, text: string): void {
    this.endPending(ctx, 'text');
    this.text(ctx, text, false);
    this.model.text(text);
  }

  private text(ctx: ProviderEventContext, text: string, thought: boolean): void {
    // An empty text part (the finishing chunk often has one, with a thought signature) opens no block.
    if (text === '') return;
    const want: Streamed = thought ? 'thinking' : 'text';
    this.clock.token(ctx.frame.receivedAt);
    this.openStreamed(ctx, want);
    ctx.envelope(STREAMED[want].type, false, text, NO_EXTRAS, undefined, this.deltaEvent);
  }

  private openStreamed(ctx: ProviderEventContext, want: Streamed): void {
    if (this.streamed === want) return;
    this.closeStreamed(ctx);
    this.blocks++;
    this.streamed = want;
    const { type, channel, kind } = STREAMED[want];
    ctx.emit(
      { type, final: false, delta: '', extras: {}, control: 'block-open' },
      unified('stream.content_block_start', this.ids(), { kind, channel }),
    );
    this.deltaEvent = unified('stream.content_block_delta', this.ids(), {
      kind: want === 'text' ? 'text_delta' : 'reasoning_delta',
      channel,
    });
  }

  /** The open text or thought block ends: a part of another kind came, or the candidate finished. */
  closeStreamed(ctx: ProviderEventContext): void {
    if (!this.streamed) return;
    const { type, channel, kind } = STREAMED[this.streamed];
    ctx.emit(
      { type, final: true, delta: '', extras: {} },
      unified('stream.content_block_stop', this.ids(), { kind, channel }),
    );
    this.streamed = undefined;
    this.deltaEvent = undefined;
  }

  private functionCall(ctx: ProviderEventContext, call: WireEvent, part: WireEvent): void {
    this.clock.token(ctx.frame.receivedAt);
    const name = stringField(call, 'name');
    const continues = call['willContinue'] === true;
    const partial = Array.isArray(call['partialArgs']) ? (call['partialArgs'] as unknown[]) : undefined;
    if (this.call && name !== '' && name !== this.call.name)
      this.endCall(ctx, `a call of ${name} started (chunk ${ctx.frame.seq})`);
    if (!this.call && !continues && !partial) {
      // A whole call: name and args in one part.
      const sentId = stringField(call, 'id');
      const id = sentId || this.host.newId('call');
      const args = call['args'];
      this.model.call({ id, sentId, name, args: isJsonObject(args) ? args : {} }, part);
      if (args !== undefined && !isJsonObject(args))
        ctx.report(
          'provider.tool-args-invalid',
          `The functionCall ${name || '(unnamed)'} of candidate ${this.index} in chunk ${ctx.frame.seq} has args that are a JSON ${Array.isArray(args) ? 'array' : typeof args}, not an object, so a client cannot call the tool with them: ${jsonText(args).slice(0, 200)}`,
        );
      ctx.emit(
        { type: KIND.tool_call, final: true, delta: jsonText(args ?? {}), extras: { id, name } },
        unified('stream.tool_call_stop', this.ids({ tool_call_id: id }), {
          kind: 'functionCall',
          tool: { kind: 'client', name },
          phase: 'completed',
        }),
      );
      return;
    }
    if (!this.call) {
      const sentId = stringField(call, 'id');
      const id = sentId || this.host.newId('call');
      const signature = typeof part['thoughtSignature'] === 'string' ? part['thoughtSignature'] : undefined;
      this.call = { id, sentId, signature, name, args: new PartialArguments(), at: ctx.at, frame: ctx.frame.seq };
      ctx.wire(
        'functionCall',
        call,
        unified('stream.tool_call_start', this.ids({ tool_call_id: id }), {
          kind: 'functionCall',
          tool: { kind: 'client', name },
        }),
      );
    } else {
      ctx.wire(
        'functionCall',
        call,
        unified('stream.tool_call_input.delta', this.ids({ tool_call_id: this.call.id }), { kind: 'partialArgs' }),
      );
    }
    const open = this.call;
    if (isJsonObject(call['args']))
      for (const [key, value] of Object.entries(call['args'])) open.args.root[key] = value;
    for (const arg of partial ?? []) {
      const problem = open.args.apply(arg);
      if (problem)
        ctx.report(
          'provider.tool-args-invalid',
          `The streamed functionCall ${open.name || '(unnamed)'} (${open.id}) of candidate ${this.index} has, in chunk ${ctx.frame.seq}, ${problem}; that argument is left out.`,
        );
    }
    if (!continues) this.finishCall(ctx, 'completed');
  }

  /** The streamed call's last part came: the call with the arguments built from its parts. */
  private finishCall(ctx: ProviderEventContext, phase: 'completed' | 'incomplete'): void {
    const call = this.call;
    if (!call) return;
    this.call = undefined;
    const { sentId, signature, name } = call;
    const args = call.args.root;
    // A call whose arguments never all came is no call a client can run.
    if (phase === 'completed')
      this.model.call(
        { id: call.id, sentId, name, args },
        {
          functionCall: { ...(sentId !== '' ? { id: sentId } : {}), name, args },
          ...(signature !== undefined ? { thoughtSignature: signature } : {}),
        },
      );
    ctx.emit(
      { type: KIND.tool_call, final: true, delta: jsonText(call.args.root), extras: { id: call.id, name: call.name } },
      unified('stream.tool_call_stop', this.ids({ tool_call_id: call.id }), {
        kind: 'functionCall',
        tool: { kind: 'client', name: call.name },
        phase,
      }),
    );
  }

  /** A streamed call still waiting for parts (`willContinue: true`) when `why`: its arguments are incomplete. */
  endCall(ctx: ProviderEventContext, why: string): void {
    const call = this.call;
    if (!call) return;
    ctx.report(
      'gemini.partial-args-incomplete',
      `The functionCall ${call.name || '(unnamed)'} (${call.id}) of candidate ${this.index}, started in chunk ${call.frame}, said willContinue but got no last part before ${why}: its arguments are incomplete (${call.args.count} partial argument(s) arrived); the call is kept with them.`,
    );
    this.finishCall(ctx, 'incomplete');
  }

  /** `thought`: the model ran the code while it thought (its part says `thought: true`): marked so, on the reasoning channel. */
  private executableCode(ctx: ProviderEventContext, code: WireEvent, thought: boolean): void {
    this.clock.token(ctx.frame.receivedAt);
    const id = stringField(code, 'id') || this.host.newId('code');
    this.lastCode = id;
    ctx.emit(
      {
        type: KIND.server_tool_call,
        final: true,
        delta: jsonText(code),
        extras: { id, name: 'code_execution', ...thoughtMark(thought) },
      },
      unified('stream.tool_call_start', this.ids({ tool_call_id: id }), {
        kind: 'executableCode',
        tool: { kind: 'builtin', builtin: 'code_execution' },
        ...(thought ? { channel: 'reasoning' } : {}),
      }),
    );
  }

  /** The result of the code before it (or of none: then it says so at reconstruction), open for the images that follow. */
  private codeExecutionResult(ctx: ProviderEventContext, result: WireEvent, thought: boolean): void {
    const id = stringField(result, 'id') || this.lastCode || this.host.newId('code');
    this.lastCode = undefined;
    const outcome = stringField(result, 'outcome');
    const failed = outcome !== '' && outcome !== 'OUTCOME_OK';
    this.codeResult = id;
    ctx.emit(
      {
        type: KIND.tool_result,
        final: false,
        delta: stringField(result, 'output'),
        extras: { id, name: 'code_execution', ...thoughtMark(thought) },
      },
      unified('stream.tool_call_result', this.ids({ tool_call_id: id }), {
        kind: 'codeExecutionResult',
        tool: { kind: 'builtin', builtin: 'code_execution' },
        ...(thought ? { channel: 'reasoning' } : {}),
        phase: failed ? 'failed' : 'completed',
        ...(failed ? { error: result } : {}),
      }),
    );
  }

  closeCodeResult(ctx: ProviderEventContext): void {
    const id = this.codeResult;
    if (id === undefined) return;
    this.codeResult = undefined;
    ctx.emit({ type: KIND.tool_result, final: true, delta: '', extras: { id, name: 'code_execution' } });
  }

  /**
   * Inline data: an image the model made (or a plot of its code) is shown as one, attached
   * to the open code result, else to the text block it appears in (one is opened when none
   * is, so an image-only answer still has its block); other media are kept as provider events.
   */
  private inlineData(ctx: ProviderEventContext, data: WireEvent): void {
    this.clock.token(ctx.frame.receivedAt);
    const mimeType = stringField(data, 'mimeType');
    const base64 = stringField(data, 'data');
    if (!mimeType.startsWith('image/') || base64 === '') {
      this.closeStreamed(ctx);
      ctx.wire('inlineData', { mimeType, bytes: base64DecodedLength(base64) });
      return;
    }
    const extras: Record<string, unknown> = { src: `data:${mimeType};base64,${base64}`, media_type: mimeType };
    if (this.codeResult !== undefined) extras['id'] = this.codeResult;
    else if (this.streamed !== 'text') this.openStreamed(ctx, 'text');
    ctx.emit(
      { type: KIND.tool_result_image, final: true, delta: '', extras },
      unified('stream.content_block_delta', this.ids(), { kind: 'inline_data' }),
    );
  }

  private otherPart(ctx: ProviderEventContext, part: WireEvent, kind: string | undefined): void {
    const name = kind ?? Object.keys(part).find((k) => k !== 'thoughtSignature' && k !== 'thought') ?? 'empty';
    if (kind === undefined)
      this.host.reportOnce(
        ctx,
        `part:${name}`,
        `Candidate ${this.index} in chunk ${ctx.frame.seq} has a part of kind ${jsonText(name)}, which this version does not know; kept as a provider event.`,
      );
    ctx.wire(name, part, unified('stream.content_block_delta', this.ids(), { kind: name }));
  }

  /**
   * The candidate finished: everything still open ends here but its text (or thought) block,
   * which text after the finishReason continues (streams that send STOP on every chunk) and
   * which closes at the next part of another kind, or with the candidate's summary.
   */
  closeAllButText(ctx: ProviderEventContext, why: string): void {
    this.endCall(ctx, why);
    this.closeCodeResult(ctx);
  }
}

/** The mark of a part the model made while it thought (`thought: true`): its envelope says so. */
function thoughtMark(thought: boolean): { thought?: true } {
  return thought ? { thought: true } : {};
}
