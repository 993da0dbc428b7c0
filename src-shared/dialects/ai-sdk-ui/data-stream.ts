import { frameDataBytes, handOnMeasure } from '../../envelope/budget';
import { undecodedParts } from '../../envelope/types';
import { unified } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import { isJsonObject, jsonKind, parseJson } from '../../json/values';
import { stringValue } from '../../json/compact-json';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import { stringField, type WireEvent } from '../provider/event-context';
import type { AiSdkMessage } from './message';
import type { OpenText, TextKind } from './text-parts';
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

/**
 * Parts a v4 server writes after the finish message as a matter of course: `StreamData` appended
 * in `onFinish` (and annotations) is merged into the stream after `d:`, and the v4 frontend
 * applies every part until the body ends (`processChatResponse`). Not reported after the finish.
 */
const AFTER_FINISH_EXPECTED: ReadonlySet<DataStreamCode> = new Set(['2', '8']);

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

const COLON = 0x3a;
const QUOTE = 0x22;
const TEXT_CODE = 0x30; // 0
const REASONING_CODE = 0x67; // g
const TEXT_PART = DATA_STREAM_PARTS['0'];
const REASONING_PART = DATA_STREAM_PARTS.g;

/** Whether a line is a data stream part: a known code, a colon and a JSON value (detection's evidence). */
export function isDataStreamPart(line: string): boolean {
  return line.charCodeAt(1) === COLON && isDataStreamCode(line.charAt(0)) && parseJson(line.slice(2)).ok;
}

/** A digit or a lower-case letter: what a part code may be. */
function isCodeCharacter(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a);
}

export class DataStreamReader {
  private readonly unknownReported = new Set<string>();
  /** The implicit text and reasoning parts being streamed (one at a time: either ends the other). */
  private openText: OpenText | undefined;
  private openReasoning: OpenText | undefined;
  private parts = 0;
  private readonly readShapes: boolean;

  /** `readShapes` false: every line's value through JSON.parse (DialectOptions.readShapes). */
  constructor(
    private readonly message: AiSdkMessage,
    readShapes = true,
  ) {
    this.readShapes = readShapes;
  }

  read(frame: Frame): void {
    const { message } = this;
    const ctx = message.at(frame);
    const line = frame.data;
    const first = line.charCodeAt(0);
    if (line.charCodeAt(1) !== COLON || !isCodeCharacter(first))
      return this.bad('is not CODE:JSON (a part code, a colon and a JSON value)');
    if (
      this.readShapes &&
      (first === TEXT_CODE || first === REASONING_CODE) &&
      line.length > 3 &&
      line.charCodeAt(2) === QUOTE &&
      line.charCodeAt(line.length - 1) === QUOTE
    ) {
      // Text and reasoning, most of a stream: the string read without JSON.parse, as it would read it.
      const text = stringValue(line, 3, line.length - 1);
      if (text !== undefined) {
        // A text without escapes is as long as its literal, and its UTF-8 size is the line's
        // but for `0:"` and `"`: the statistics take it instead of measuring the text again.
        if (text.length === line.length - 4) {
          const bytes = frameDataBytes(frame) - 4;
          handOnMeasure(text, bytes, bytes);
        }
        const name = first === TEXT_CODE ? TEXT_PART : REASONING_PART;
        message.checkAfterFinish(name, false);
        return this.stream(first === TEXT_CODE ? 'text' : 'reasoning', text, name);
      }
    }
    const code = line.charAt(0);
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
    if (!AFTER_FINISH_EXPECTED.has(code)) message.checkAfterFinish(name, false);
    if (code === '0' || code === 'g') return this.stream(code === '0' ? 'text' : 'reasoning', value as string, name);
    if (!BESIDE_TEXT.has(code)) this.closeTexts();
    this.decode(code, name, value, isJsonObject(value) ? value : { value });
  }

  private decode(code: DataStreamCode, name: string, value: unknown, event: WireEvent): void {
    const { message } = this;
    switch (code) {
      case 'f':
        if (message.afterFinish || !message.clock) {
          message.start(name, event, stringField(event, 'messageId'), undefined);
          return message.parts.step();
        }
        message.name(stringField(event, 'messageId'));
        return message.step(name, event, 'start-step');
      case 'e':
        return message.step(name, event, 'finish-step', event['usage']);
      case 'd':
        return message.finish(name, event, {
          reason: stringField(event, 'finishReason') || undefined,
          usage: event['usage'],
        });
      case '3':
        return message.error(name, event, value as string);
      case 'b':
        return message.tools.start(
          stringField(event, 'toolCallId'),
          stringField(event, 'toolName'),
          NO_FLAGS,
          name,
          event,
        );
      case 'c':
        return message.tools.delta(stringField(event, 'toolCallId'), stringField(event, 'argsTextDelta'), name, event);
      case '9':
        return message.tools.available(
          stringField(event, 'toolCallId'),
          stringField(event, 'toolName'),
          event['args'],
          NO_FLAGS,
          name,
        );
      case 'a':
        return message.tools.output(stringField(event, 'toolCallId'), event['result'], false, false, name, event);
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
          { source_id: stringField(event, 'id'), url: stringField(event, 'url') },
          { type: 'source', source: value },
        );
      case 'k':
        return message.content(
          'file',
          value,
          { mime_type: stringField(event, 'mimeType') },
          { type: 'file', ...event },
        );
      default:
        return message.content(name, value, {}, null);
    }
  }

  /** A text or reasoning part: the open one of its kind goes on, or one opens (ending the other kind's). */
  private stream(kind: TextKind, text: string, name: string): void {
    const texts = this.message.texts;
    let open = kind === 'text' ? this.openText : this.openReasoning;
    if (open === undefined) {
      this.closeTexts(kind);
      open = texts.start(kind, `${kind}-${this.parts++}`, name);
      if (kind === 'text') this.openText = open;
      else this.openReasoning = open;
    }
    texts.stream(open, text);
  }

  /** Ends the open text and reasoning parts, but for `keep`'s kind. */
  private closeTexts(keep?: TextKind): void {
    const texts = this.message.texts;
    const text = this.openText;
    if (text !== undefined && keep !== 'text') {
      this.openText = undefined;
      texts.end('text', text.id, TEXT_PART, {});
    }
    const reasoning = this.openReasoning;
    if (reasoning !== undefined && keep !== 'reasoning') {
      this.openReasoning = undefined;
      texts.end('reasoning', reasoning.id, REASONING_PART, {});
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
