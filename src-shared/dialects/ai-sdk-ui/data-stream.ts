import { undecodedParts } from '../../envelope/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { isJsonObject, jsonKind, parseJson } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import { stringField, type WireEvent } from '../provider/event-context';
import type { AiSdkMessage, TextKind } from './message';
import { DATA_STREAM_PARTS, isDataStreamCode, type DataStreamCode } from './vocabulary';

/**
 * The AI SDK 4 data stream (`x-vercel-ai-data-stream: v1`): one `CODE:JSON` part per line
 * (line-framed, pipeline/leg-framing.ts), read into the message's operations (message.ts).
 * Text and reasoning parts have no ids and no end: consecutive `0:` (or `g:`) parts are one
 * part, which the next part of another kind ends. A line that is not `CODE:JSON`, or whose
 * value is not what its code carries, is kept undecoded and reported (`ai-sdk.bad-line`).
 */

const NO_FLAGS = { providerExecuted: false, dynamic: false } as const;

/** Parts that come beside the text without ending it: data, annotations, sources, files, a reasoning signature. */
const BESIDE_TEXT: ReadonlySet<DataStreamCode> = new Set(['2', '8', 'h', 'k', 'j']);

/** What each code's value is: the SDK rejects a part whose value is another kind. */
const VALUE_KIND: Readonly<Record<DataStreamCode, 'string' | 'array' | 'object'>> = {
  '0': 'string',
  '2': 'array',
  '3': 'string',
  '8': 'array',
  '9': 'object',
  a: 'object',
  b: 'object',
  c: 'object',
  d: 'object',
  e: 'object',
  f: 'object',
  g: 'string',
  h: 'object',
  i: 'object',
  j: 'object',
  k: 'object',
};

/** Whether a line is a data stream part: a known code, a colon and a JSON value (detection's evidence). */
export function isDataStreamPart(line: string): boolean {
  return line.charCodeAt(1) === 0x3a /* : */ && isDataStreamCode(line.charAt(0)) && parseJson(line.slice(2)).ok;
}

export class DataStreamReader {
  private readonly unknownReported = new Set<string>();
  /** The implicit text and reasoning parts being streamed, by kind: their ids. */
  private readonly open: Partial<Record<TextKind, string>> = {};
  private parts = 0;

  constructor(private readonly message: AiSdkMessage) {}

  read(frame: Frame): void {
    const { message } = this;
    const ctx = message.at(frame);
    const line = frame.data;
    const code = line.charAt(0);
    if (line.charCodeAt(1) !== 0x3a || !/^[0-9a-z]$/.test(code))
      return this.bad(`is not CODE:JSON (a part code, a colon and a JSON value)`);
    const parsed = parseJson(line.slice(2));
    if (!parsed.ok) return this.bad(`has code ${code} but its value is not JSON (${parsed.error})`);
    const value = parsed.value;
    if (!isDataStreamCode(code)) {
      if (!this.unknownReported.has(code)) {
        this.unknownReported.add(code);
        ctx.report(
          'ai-sdk.unknown-code',
          `Line ${frame.seq} has part code ${code}, which this version does not know; kept as a provider event. Later ones are not reported again.`,
        );
      }
      ctx.wire(`part ${code}`, { value });
      return;
    }
    const name = DATA_STREAM_PARTS[code];
    const expected = VALUE_KIND[code];
    const kind = Array.isArray(value) ? 'array' : isJsonObject(value) ? 'object' : jsonKind(value);
    if (kind !== expected)
      return this.bad(`is a ${name} part (${code}), whose value is a JSON ${expected}, not a ${kind}`);
    message.checkAfterFinish(name, false);
    const event: WireEvent = isJsonObject(value) ? value : { value };
    this.decode(code, name, value, event);
  }

  private decode(code: DataStreamCode, name: string, value: unknown, event: WireEvent): void {
    const { message } = this;
    const field = (key: string): string => stringField(event, key);
    if (code === '0' || code === 'g')
      return this.stream(code === '0' ? 'text' : 'reasoning', value as string, name, event);
    if (!BESIDE_TEXT.has(code)) this.closeTexts();
    switch (code) {
      case 'f':
        if (message.afterFinish || !message.clock) {
          message.start(name, event, field('messageId'), undefined);
          return message.parts.step();
        }
        return message.step(name, event, 'start-step');
      case 'e':
        return message.step(name, event, 'finish-step', event['usage']);
      case 'd':
        return message.finish(name, event, { reason: field('finishReason') || undefined, usage: event['usage'] });
      case '3':
        return message.error(name, event, value as string);
      case 'b':
        return message.tools.start(field('toolCallId'), field('toolName'), NO_FLAGS, name, event);
      case 'c':
        return message.tools.delta(field('toolCallId'), field('argsTextDelta'), name, event);
      case '9':
        return message.tools.available(field('toolCallId'), field('toolName'), event['args'], NO_FLAGS, name);
      case 'a':
        return message.tools.output(field('toolCallId'), event['result'], false, false, name, event);
      case 'i':
        return message.content(KIND.redacted_thinking, value, {}, null);
      case 'j':
        return message.ctx.wire(
          name,
          event,
          unified('stream.content_block_delta', message.ids(), { kind: 'signature_delta', channel: 'reasoning' }),
        );
      case 'h':
        return message.content(
          'source',
          value,
          { source_id: field('id'), url: field('url') },
          { type: 'source', source: value },
        );
      case 'k':
        return message.content('file', value, { mime_type: field('mimeType') }, { type: 'file', ...event });
      case '2':
      case '8':
        return message.content(name, value, {}, null);
    }
  }

  /** A text or reasoning part: the open one of its kind goes on, or one opens (ending the other kind's). */
  private stream(kind: TextKind, text: string, name: string, event: WireEvent): void {
    const { message } = this;
    this.closeTexts(kind);
    let id = this.open[kind];
    if (id === undefined) {
      id = `${kind}-${this.parts++}`;
      this.open[kind] = id;
      message.textStart(kind, id, name);
    }
    message.textDelta(kind, id, text, name, event);
  }

  /** Ends the open text and reasoning parts, but for `keep`'s kind. */
  private closeTexts(keep?: TextKind): void {
    for (const kind of ['text', 'reasoning'] as const) {
      const id = this.open[kind];
      if (id === undefined || kind === keep) continue;
      delete this.open[kind];
      this.message.textEnd(kind, id, DATA_STREAM_PARTS[kind === 'text' ? '0' : 'g'], {});
    }
  }

  private bad(why: string): void {
    const { ctx } = this.message;
    ctx.report('ai-sdk.bad-line', `Line ${ctx.frame.seq} ${why}; kept undecoded: ${previewText(ctx.frame.data)}`);
    ctx.emit(undecodedParts(ctx.frame));
  }

  /** The stream ended: a text or reasoning part it was streaming ends with it (v4 parts have no end of their own). */
  end(): void {
    this.closeTexts();
  }
}
