import type { DiagnosticLocation } from '../../diagnostics/types';
import type { Frame } from '../../sse/types';
import { isJsonObject } from '../../json/values';
import { detachString } from '../../text/detach';
import { previewText } from '../../text/preview';
import { type DialectCallbacks, type DialectDecoder, type DialectOptions } from '../types';
import { KIND } from '../../envelope/vocabulary';
import { decodeCdataElement, decodeCitations, decodeServerToolResult, decodeToolResult } from './body-elements';
import { findEmbeddedTags } from './embedded';
import {
  extraAttributes,
  idAndName,
  parseAttributeJson,
  readElement,
  requireAttributes,
  type Element,
} from './element';
import { FormatterEscaping } from './formatter-escaping';
import { Item, type ItemContext, type ItemStream, type StreamedType } from './item';
import { isCompleteElement, isServerToolId, rawAttribute, streamedTag, unknownBlockTag } from './item-shape';
import { LESS_THAN, tagNameAt } from './markup';
import { dynamicResultName, itemKind, SERVER_TOOL_ID_PREFIX, STREAMED_BLOCK_TAGS, type ItemKind } from './vocabulary';

export interface XmlItemDecoderOptions extends DialectOptions {
  /** The format a meta_init of this stream should announce (the raw dialect reuses this decoder). */
  expectedFormat?: 'xml' | 'raw';
}

/** The item decoder behind the xml dialect; the raw dialect feeds it its XML items. */
export interface XmlItemDecoder {
  push(frame: Frame): void;
  end(): void;
  /** The agent items are stamped with: the root agent's meta_init uuid, else `defaultAgent`. */
  agent(): string;
  /** A text/thinking block is open, so the next item is content whatever it looks like. */
  insideStreamedBlock(): boolean;
}

interface OpenBlock {
  type: StreamedType;
  frame: number;
  /** Where its open tag is, for findings raised after that event. */
  at: DiagnosticLocation;
  /** Already reported as left open (`xml.unclosed`): reported once. */
  reportedUnclosed: boolean;
}

/**
 * The legacy XML wire dialect (docs/protocols/legacy-xml.md; docs/protocols/upstream-protocol.md §5, §7 #30, §13 #44). One SSE
 * event is one queue item, decoded on its own — never by parsing the concatenation, since
 * text deltas are not escaped and may contain `</content-block-text>`, `<chart>` or `&amp;`.
 * Every item maps to the envelope vocabulary of the JSON dialect (docs/protocols/json-envelopes.md's migration
 * table), so reconstruction, diffing and the timeline treat both formats alike.
 *
 * Decisions that the wire leaves open:
 * - Inside an open text/thinking block an item is a delta unless it is exactly an open tag
 *   of a streamed block, the close tag of an open one, or a complete element of the
 *   vocabulary (`<tag …>…</tag>` or `<tag … />`; closed by the wrong vocabulary tag, it is
 *   still an element, reported `xml.mismatched`). A delta that is exactly such an item
 *   cannot be told from one.
 * - Upstream closes a block before it sends any other tag, so in a stream without
 *   sub-agents an open tag or a complete element arriving while a block is open means that
 *   block was left open (a retried API call abandons its partial block): it is reported
 *   `xml.unclosed` there, once. It stays open, so a late close tag still closes it and no
 *   item is taken from it. With sub-agents the tags of concurrent agents interleave:
 *   another block opening is `xml.overlapping-blocks`, and an element is theirs.
 * - Escaping (escaping.ts) is undone per producer. Streams from before upstream escaped
 *   anything (the captured stream) are recognised by a formatter item holding a backslash
 *   the escaping cannot produce; from that item on, items are taken verbatim
 *   (`xml.unescaped-stream`). Items before it that hold `\\` or `\n` were already unescaped.
 * - Items carry no agent: they are stamped with `defaultAgent` until the root agent's
 *   meta_init names it. A sub-agent's meta_init (parent_agent_uuid set) is stamped with the
 *   child's uuid, but the child's later items cannot be told from the parent's and keep the
 *   root agent (`xml.subagent-unattributed`).
 */
export function createXmlItemDecoder(callbacks: DialectCallbacks, options: XmlItemDecoderOptions = {}): XmlItemDecoder {
  const expectedFormat = options.expectedFormat ?? 'xml';
  const readShapes = options.readShapes !== false;
  const stream: ItemStream = { callbacks, rootAgent: options.defaultAgent ?? '' };
  /** Undoes the formatter's SSE escaping while items still look escaped (see the notes above). */
  const escaping = new FormatterEscaping();
  /** Open streamed blocks in opening order; deltas go to the newest. */
  const open: OpenBlock[] = [];
  /** A sub-agent's meta_init was seen: tags of concurrent agents may interleave from here on. */
  let subagentReported = false;
  const legacyTagsReported = new Set<string>();
  const unknownTagsReported = new Set<string>();
  /** The item being decoded: one object, reset for each item (see Item). */
  const ctx = new Item(stream);

  function push(frame: Frame): void {
    const newest = open.at(-1);
    // The hot shape: a delta inside an open block. No tag can start it, so nothing else can
    // decide what it is (the general path below reads it the same way).
    if (readShapes && newest !== undefined && frame.data.charCodeAt(0) !== LESS_THAN) {
      ctx.start(frame, detachString(frame.data));
      emitDelta(ctx, newest.type);
      return;
    }
    const streamed = streamedTag(frame.data);
    // A close tag of a block that is not open, inside another block, can only be text.
    if (streamed && (!streamed.closing || newest === undefined || open.some((b) => b.type === streamed.type))) {
      ctx.start(frame, frame.data);
      if (streamed.closing) closeBlock(ctx, streamed.type);
      else openBlock(ctx, streamed.type);
      return;
    }
    // Deltas, attribute values and CDATA bodies are cut from the data and kept by the blocks;
    // the framer's data is itself cut from the text of a whole network chunk, which they would
    // otherwise keep alive with them. So whatever is kept is cut from a string of the item's
    // own: a copy of the data, or (decodeElement) its unescaped text decoded from bytes. The
    // tag read here from the framer's data only classifies the item.
    const rawTag = tagNameAt(frame.data, 0);
    const kind = rawTag === null ? undefined : itemKind(rawTag);
    if (rawTag !== null && kind !== undefined && (newest === undefined || isCompleteElement(frame.data, rawTag))) {
      if (newest !== undefined && !subagentReported) {
        ctx.start(frame, frame.data);
        reportLeftOpen(ctx, `brought a complete <${detachString(rawTag)}> item`);
      }
      decodeElement(ctx, frame, rawTag.length, kind);
      return;
    }
    const data = detachString(frame.data);
    ctx.start(frame, data);
    const tag = rawTag === null ? null : data.slice(1, 1 + rawTag.length);
    if (newest !== undefined) {
      const unknown = unknownBlockTag(data, tag);
      if (unknown !== null)
        reportUnknownTag(
          ctx,
          unknown,
          `it came inside the open ${newest.type} block and is shown as received, as text of that block`,
        );
      emitDelta(ctx, newest.type);
    } else if (tag !== null && STREAMED_BLOCK_TAGS.has(tag)) {
      ctx.report(
        'xml.malformed',
        `Event ${frame.seq} starts with <${tag}> but is not that open tag alone; upstream always sends the open tag, each delta and the close tag as separate items. Kept undecoded: ${previewText(data)}`,
      );
      ctx.undecoded();
    } else if (tag !== null) {
      reportUnknownTag(ctx, tag, 'kept undecoded');
      ctx.undecoded();
    } else if (data.startsWith('</')) {
      ctx.report(
        'xml.mismatched',
        `Event ${frame.seq} is a close tag with no open element: ${previewText(data)}; kept undecoded.`,
      );
      ctx.undecoded();
    } else {
      ctx.report(
        'xml.malformed',
        `Event ${frame.seq} is text outside any <content-block-text> or <content-block-thinking> block, so it belongs to no block; kept undecoded: ${previewText(data)}`,
      );
      ctx.undecoded();
    }
  }

  function reportUnknownTag(ctx: ItemContext, tag: string, how: string): void {
    if (unknownTagsReported.has(tag)) return;
    unknownTagsReported.add(tag);
    ctx.report(
      'xml.unknown-tag',
      `Event ${ctx.frame.seq} is a <${tag}> item, which is not part of the XML stream vocabulary; ${how}. Later <${tag}> items are not reported again.`,
    );
  }

  // ---- Streamed blocks -------------------------------------------------------------------

  function openBlock(ctx: ItemContext, type: StreamedType): void {
    const { frame } = ctx;
    const same = open.findIndex((b) => b.type === type);
    if (same !== -1) {
      const previous = open[same];
      if (previous && !previous.reportedUnclosed) {
        ctx.report(
          'xml.unclosed',
          `<content-block-${type}> in event ${frame.seq} opens a new ${type} block while the one opened in event ${previous.frame} was never closed: a retried API call replays the block from its start (interleaved sub-agents do the same). The new block starts here.`,
        );
      }
      open.splice(same, 1);
    }
    if (open.length > 0 && subagentReported) {
      const others = open.map((b) => `${b.type} (event ${b.frame})`).join(', ');
      ctx.report(
        'xml.overlapping-blocks',
        `<content-block-${type}> in event ${frame.seq} opens while ${others} is still open. XML items carry no agent or block id, so the deltas that follow all go to this ${type} block: the stream interleaves concurrent sub-agents, whose output cannot be separated.`,
      );
    } else if (open.length > 0) {
      reportLeftOpen(ctx, `opened a ${type} block`);
    }
    open.push({ type, frame: frame.seq, at: ctx.at, reportedUnclosed: false });
    ctx.emitStreamed(type, false, '', 'block-open');
  }

  /**
   * The open blocks were left open: in a stream without sub-agents nothing but their deltas
   * and close tag comes between their open and close tags. Each is reported once, at the
   * item that shows it.
   */
  function reportLeftOpen(ctx: ItemContext, what: string): void {
    for (const block of open) {
      if (block.reportedUnclosed) continue;
      block.reportedUnclosed = true;
      ctx.report(
        'xml.unclosed',
        `The ${block.type} block opened in event ${block.frame} was not closed before event ${ctx.frame.seq} ${what}. Upstream sends </content-block-${block.type}> before anything else follows a block, and no sub-agent has started in this stream, so the block was left open (a retried API call abandons its partial block). Items that are no tag still go to the newest open block.`,
      );
    }
  }

  function closeBlock(ctx: ItemContext, type: StreamedType): void {
    const { frame } = ctx;
    const index = open.findIndex((b) => b.type === type);
    const newest = open.at(-1);
    if (index === -1) {
      // Only reached with no block open: inside another block such an item is text.
      ctx.report(
        'xml.mismatched',
        `</content-block-${type}> in event ${frame.seq} arrives while no block is open, so it closes nothing; kept undecoded.`,
      );
      ctx.undecoded();
      return;
    }
    if (newest && index !== open.length - 1) {
      ctx.report(
        'xml.mismatched',
        `</content-block-${type}> in event ${frame.seq} closes the ${type} block from event ${open[index]?.frame ?? '?'} while the ${newest.type} block opened after it (event ${newest.frame}) is still open: the tags of interleaved sub-agents cross.`,
      );
    }
    open.splice(index, 1);
    ctx.emitStreamed(type, true, '');
  }

  function emitDelta(ctx: ItemContext, type: StreamedType): void {
    const delta = escaping.text(ctx, ctx.data);
    const embedded = findEmbeddedTags(delta);
    if (embedded.length > 0) ctx.emit({ type, final: false, delta, extras: { embedded } });
    else ctx.emitStreamed(type, false, delta);
  }

  // ---- Elements --------------------------------------------------------------------------

  /** `tagLength`: the length of the item's tag name, read by `push`. */
  function decodeElement(ctx: Item, frame: Frame, tagLength: number, kind: ItemKind): void {
    const legacyServerResult = kind.shape === 'tool-result' && isServerToolId(rawAttribute(frame.data, 'id'));
    const formatter = kind.producer === 'formatter' || legacyServerResult;
    const text = formatter ? escaping.ownText(ctx, frame) : detachString(frame.data);
    if (!formatter) ctx.start(frame, text);
    const tag = text.slice(1, 1 + tagLength);
    const element = readElement(ctx, text, tag);
    if (!element) return;
    if (legacyServerResult) {
      reportLegacyTag(ctx, tag, 'server_tool_result');
      decodeServerToolResult(ctx, element, element.attributes.get('name') ?? '');
      return;
    }
    switch (kind.shape) {
      case 'data-attribute':
        decodeDataAttribute(ctx, element, kind.type);
        break;
      case 'tool-call':
        decodeToolCall(ctx, element, kind.type);
        break;
      case 'cdata-result':
        decodeServerToolResult(ctx, element, dynamicResultName(tag) ?? element.attributes.get('name') ?? '');
        break;
      case 'tool-result':
        decodeToolResult(ctx, element, escaping.escaped);
        break;
      case 'cdata':
        decodeCdataElement(ctx, element, kind.type);
        break;
      case 'citations':
        decodeCitations(ctx, element);
        break;
    }
    if (element.unclosed)
      ctx.report(
        'xml.unclosed',
        `Event ${frame.seq}: the <${tag}> item does not end with </${tag}>; its content was read up to the end of the item.`,
      );
  }

  function decodeDataAttribute(ctx: ItemContext, element: Element, type: string): void {
    const { frame } = ctx;
    const data = element.attributes.get('data');
    if (data === undefined) {
      ctx.report('xml.malformed', `Event ${frame.seq}: <${element.tag}> has no data attribute; kept undecoded.`);
      ctx.undecoded();
      return;
    }
    if (element.body !== '')
      ctx.report(
        'xml.malformed',
        `Event ${frame.seq}: <${element.tag}> should be empty but holds ${previewText(element.body)}; kept in extras.body.`,
      );
    const payload = parseAttributeJson(ctx, element, 'data');
    const agent = type === KIND.meta_init ? agentOfMetaInit(ctx, payload) : stream.rootAgent;
    const extras = extraAttributes(element, ['data']);
    if (element.body !== '') extras['body'] = element.body;
    ctx.emit({ type, final: true, delta: data, extras, agent }, payload);
  }

  function decodeToolCall(ctx: ItemContext, element: Element, type: string): void {
    let callType = type;
    if (type === KIND.tool_call && isServerToolId(element.attributes.get('id'))) {
      callType = KIND.server_tool_call;
      reportLegacyTag(ctx, element.tag, callType);
    }
    requireAttributes(ctx, element, ['id', 'name', 'arguments']);
    const payload = parseAttributeJson(ctx, element, 'arguments');
    ctx.emit(
      {
        type: callType,
        final: true,
        delta: element.attributes.get('arguments') ?? '',
        extras: idAndName(element, element.attributes.get('name'), ['arguments']),
      },
      payload,
    );
  }

  function reportLegacyTag(ctx: ItemContext, tag: string, type: string): void {
    if (legacyTagsReported.has(tag)) return;
    legacyTagsReported.add(tag);
    ctx.report(
      'xml.legacy-tag-name',
      `Event ${ctx.frame.seq}: <${tag}> with a ${SERVER_TOOL_ID_PREFIX} id is the tag name servers used for server tools before 2025-12-31; decoded as ${type}. Later items of this kind are not reported again.`,
    );
  }

  function agentOfMetaInit(ctx: ItemContext, payload: unknown): string {
    if (!isJsonObject(payload)) return stream.rootAgent;
    const format = payload['format'];
    if (typeof format === 'string' && format !== expectedFormat) {
      ctx.report(
        'stream.format-mismatch',
        `meta_init in event ${ctx.frame.seq} announces format ${JSON.stringify(format)}, but the stream is decoded as ${expectedFormat}.`,
      );
    }
    const uuid = payload['agent_uuid'];
    if (typeof uuid !== 'string' || uuid === '') return stream.rootAgent;
    const parent = payload['parent_agent_uuid'];
    if (typeof parent === 'string' && parent !== '') {
      if (!subagentReported) {
        subagentReported = true;
        ctx.report(
          'xml.subagent-unattributed',
          `meta_init in event ${ctx.frame.seq} starts sub-agent ${uuid} (parent ${parent}). XML items carry no agent id, so the sub-agent's text, tool calls and results cannot be told from its parent's: they are shown under the root agent ${stream.rootAgent === '' ? '(unknown)' : stream.rootAgent}, and concurrent sub-agents' tags interleave. Only the meta_init items are attributed. Reported once per stream.`,
        );
      }
      return uuid;
    }
    stream.rootAgent = uuid;
    return uuid;
  }

  return {
    push,
    end() {
      for (const block of open) {
        if (block.reportedUnclosed) continue;
        callbacks.onDiagnostic({
          rule: 'xml.unclosed',
          message: `The ${block.type} block opened in event ${block.frame} is still open at the end of the stream: no </content-block-${block.type}> arrived.`,
          at: block.at,
        });
      }
      open.length = 0;
    },
    agent: () => stream.rootAgent,
    insideStreamedBlock: () => open.length > 0,
  };
}

/** The xml dialect: see createXmlItemDecoder. */
export function createLegacyXmlDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const decoder = createXmlItemDecoder(callbacks, { ...options, expectedFormat: 'xml' });
  return {
    id: 'xml',
    push: (frame) => decoder.push(frame),
    end: () => decoder.end(),
    insideStreamedBlock: () => decoder.insideStreamedBlock(),
  };
}
