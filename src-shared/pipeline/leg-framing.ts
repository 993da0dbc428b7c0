import { DIALECT_REGISTRY, type DialectRegistry } from '../dialects/registry';
import type { LineFraming } from '../dialects/types';
import type { RecordedResponse } from '../recording/types';
import { createLineFramer } from '../lines/line-framer';
import { createSseFramer } from '../sse/framer';
import type { FramerCallbacks, FramerOptions, FramerSummary, SseFramer } from '../sse/types';
import { createUtf8Decoder } from '../text/utf8';
import { createJsonArrayFramer } from './json-array-framer';
import { BOM, OPEN_ARRAY, OPEN_OBJECT, isJsonSpace } from '../json/json-bytes';
import { parseJson } from '../json/values';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * How a leg's bytes become frames:
 * - `sse`: `text/event-stream`, every dialect's usual wire;
 * - `json-array`: one JSON array streamed element by element (an API asked for a stream
 *   without SSE: Gemini without `alt=sse`); `json-object`: objects pretty-printed, framed
 *   by the same framer (below);
 * - `lines`: one event per line, for a dialect that declares a line-framed wire
 *   (DialectModule.lineFramed, the AI SDK's v4 data stream), and for JSON values one per line
 *   (NDJSON, JSON Lines: `NDJSON_LINES`), whose dialect is detected from its events as an SSE
 *   stream's is.
 * The evidence: a response header a line-framed dialect names, an NDJSON media type, or
 * `text/event-stream`; without any (a JSON response, a file), the leg's first bytes. A body
 * whose first character (after a byte-order mark and whitespace) is `[` is a JSON array, and
 * one whose first character is `{` is NDJSON, since an SSE stream never starts with either (a
 * line `[…` or `{…` is no SSE field), unless the `{` is alone on its line: no NDJSON line is,
 * and an object pretty-printed (a whole response body saved to a file) starts so, framed as
 * the JSON array framer frames a bare object (one frame, `json-array.object-body`); a start a line-framed dialect recognises is lines;
 * anything else is SSE. Everything that frames a leg's bytes — the session decoder, framing
 * them again to show one event, the block diff, the CLI's `frames` — decides with this module.
 */
export type Framing = 'sse' | 'json-array' | 'json-object' | 'lines';

/**
 * Whether the JSON array framer frames a leg: an array streamed element by element, or
 * (`json-object`) objects pretty-printed, which no response head announces as a stream: a
 * live answer that is one is shown as the answer it is, and only a file (or the user's
 * "decode any content type") decodes it.
 */
export const isJsonFraming = (framing: Framing): boolean => framing === 'json-array' || framing === 'json-object';

type HeaderList = readonly (readonly [string, string])[];

export interface LegFramer {
  /** The response head, which arrives before any byte: its headers are evidence for the framing. */
  respond(headers: HeaderList): void;
  push(chunk: Uint8Array, receivedAt: number): void;
  end(): FramerSummary;
  /** How the leg is framed (SSE until its headers or first bytes said otherwise). */
  framing(): Framing;
}

const headerValue = (headers: HeaderList, name: string): string | undefined =>
  headers.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];

/**
 * JSON values one per line (NDJSON, JSON Lines): the streams of Ollama's native API and of
 * many agent servers of their own. No dialect declares it: each line is one event, and the
 * events' own markers choose the dialect (a provider's chunks), else the fallback shows them.
 * A last line without its line ending is whole when it parses.
 */
export const NDJSON_LINES: LineFraming = {
  headers: [],
  prefixBytes: 1,
  startsLike: (prefix) => prefix === '{',
  isComplete: (line) => parseJson(line).ok,
};

/** The media types NDJSON is sent as (with parameters or not). */
const NDJSON_MEDIA_TYPE = /^\s*application\/(x-ndjson|ndjson|jsonl|x-jsonlines|jsonlines)\s*(;|$)/i;

/** The line-framed wire these response headers announce, if any. */
export function announcedLineFraming(
  headers: HeaderList,
  registry: DialectRegistry = DIALECT_REGISTRY,
): LineFraming | undefined {
  for (const module of registry.modules) {
    const framing = module.lineFramed;
    if (framing?.headers.some(([name, value]) => headerValue(headers, name)?.trim().toLowerCase() === value))
      return framing;
  }
  return NDJSON_MEDIA_TYPE.test(headerValue(headers, 'content-type') ?? '') ? NDJSON_LINES : undefined;
}

/** The line-framed wire a leg starting with `prefix` (its first bytes, decoded, BOM skipped) is in, if any. */
export function lineFramingOf(prefix: string, registry: DialectRegistry = DIALECT_REGISTRY): LineFraming | undefined {
  return registry.modules.find((m) => m.lineFramed?.startsLike(prefix.slice(0, m.lineFramed.prefixBytes)))?.lineFramed;
}

const isEventStream = (headers: HeaderList): boolean =>
  /^\s*text\/event-stream\s*(;|$)/i.test(headerValue(headers, 'content-type') ?? '');

/** `application/json`, with parameters or not: a body that is a stream only when it is a JSON array. */
export const isJsonMediaType = (contentType: string): boolean => /^\s*application\/json\s*(;|$)/i.test(contentType);

/**
 * Whether response headers announce a stream the inspector frames: `text/event-stream`, an
 * NDJSON media type, or the header of a line-framed dialect (the AI SDK's v4 data stream is
 * `text/plain`). A JSON body (`isJsonMediaType`) may be a stream too, which only its first
 * byte says; anything else is a one-off answer (an error page, a JSON object).
 */
export function announcesStream(headers: HeaderList, registry: DialectRegistry = DIALECT_REGISTRY): boolean {
  return isEventStream(headers) || announcedLineFraming(headers, registry) !== undefined;
}

/**
 * Whether a recorded response is a stream to decode, as the live connection decides it: a 2xx
 * whose headers announce one (`announcesStream`: SSE, NDJSON, a line-framed dialect's header),
 * or a 2xx JSON body that starts as an array (`startsAsArray`: streamed element by element,
 * Gemini without `alt=sse`). Absent: a capture without a response head, a stream.
 */
export function isStreamResponse(
  response: Pick<RecordedResponse, 'status' | 'headers'> | undefined,
  startsAsArray = false,
): boolean {
  if (!response) return true;
  if (response.status < 200 || response.status > 299) return false;
  if (announcesStream(response.headers)) return true;
  return startsAsArray && isJsonMediaType(headerValue(response.headers, 'content-type') ?? '');
}

/**
 * Whether a recorded response's head leaves it to the body's first bytes whether it is a
 * stream: a 2xx JSON body announcing none, a stream when it starts as an array
 * (`isStreamResponse(response, startsAsArray)`). What a recording written before its response
 * records said `stream` must be read for.
 */
export function decidedByFirstBytes(response: Pick<RecordedResponse, 'status' | 'headers'>): boolean {
  return (
    response.status >= 200 &&
    response.status <= 299 &&
    !announcesStream(response.headers) &&
    isJsonMediaType(headerValue(response.headers, 'content-type') ?? '')
  );
}

/** Leading whitespace past which a body is taken for SSE without waiting for more. */
export const FRAMING_DECIDED_WITHIN = 64 * 1024;

interface Decision {
  framing: Framing;
  lines?: LineFraming;
}

/**
 * The decision from a leg's first bytes as they arrive, reading each byte once (a body may
 * open with kilobytes of whitespace, a byte at a time). A byte-order mark and whitespace say
 * nothing about a JSON array; a line-framed dialect reads the first `prefixBytes` after the mark.
 */
class FramingSniffer {
  private seen = 0;
  private bom = 0;
  private firstSignificant: number | undefined;
  private readonly head: number[] = [];
  private readonly needed: number;

  constructor(private readonly registry: DialectRegistry) {
    this.needed = Math.max(0, ...registry.modules.map((m) => m.lineFramed?.prefixBytes ?? 0));
  }

  /** Reads the next bytes; the decision once they make it (or `final`: the leg ended), undefined before. */
  read(bytes: Uint8Array, final = false): Decision | undefined {
    for (const b of bytes) {
      const inBom = this.seen === this.bom && this.bom < BOM.length && b === BOM[this.bom];
      this.seen++;
      if (inBom) {
        this.bom++;
        continue;
      }
      if (this.head.length < this.needed) this.head.push(b);
      if (this.firstSignificant === OPEN_OBJECT) {
        // What follows the `{` on its line: `{` alone is no NDJSON line, but an object
        // pretty-printed (a whole response body saved to a file), framed whole.
        if (b === LF || b === CR) return { framing: 'json-object' };
        if (b === SPACE || b === TAB) continue;
        return { framing: 'lines', lines: NDJSON_LINES };
      }
      if (this.firstSignificant === undefined && !isJsonSpace(b)) this.firstSignificant = b;
      if (this.firstSignificant === OPEN_ARRAY) return { framing: 'json-array' };
      if (this.firstSignificant === OPEN_OBJECT) continue;
      if (this.firstSignificant !== undefined && this.head.length >= this.needed) return this.byPrefix();
    }
    if (final || this.seen >= FRAMING_DECIDED_WITHIN)
      return this.firstSignificant === OPEN_OBJECT ? { framing: 'lines', lines: NDJSON_LINES } : this.byPrefix();
    return undefined;
  }

  private byPrefix(): Decision {
    if (this.head.length === 0) return { framing: 'sse' };
    const lines = lineFramingOf(createUtf8Decoder().decode(new Uint8Array(this.head)), this.registry);
    return lines ? { framing: 'lines', lines } : { framing: 'sse' };
  }
}

/** The framing of a leg whose first bytes are `head` (no headers); undefined while they decide nothing yet. */
export function framingOfHead(head: Uint8Array, registry: DialectRegistry = DIALECT_REGISTRY): Framing | undefined {
  return framingOfChunks(registry)(head);
}

/**
 * The same decision fed chunk by chunk (a live response's body as it arrives), each byte read
 * once: undefined until the bytes so far decide.
 */
export function framingOfChunks(
  registry: DialectRegistry = DIALECT_REGISTRY,
): (chunk: Uint8Array) => Framing | undefined {
  const sniffer = new FramingSniffer(registry);
  return (chunk) => sniffer.read(chunk)?.framing;
}

function framerFor(decision: Decision, callbacks: FramerCallbacks, sseOptions: FramerOptions): SseFramer {
  const { lines } = decision;
  if (lines) return createLineFramer(callbacks, { isComplete: (line) => lines.isComplete(line) });
  if (isJsonFraming(decision.framing)) return createJsonArrayFramer(callbacks);
  return createSseFramer(callbacks, sseOptions);
}

/**
 * The leg's framer, chosen on evidence. Without a deciding header, the first chunks are held
 * until their bytes decide, then replayed into the chosen framer, so chunk numbers and
 * receive times are the received ones. A leg that ends undecided is decided by what it has.
 */
export function createLegFramer(
  callbacks: FramerCallbacks,
  sseOptions: FramerOptions,
  registry: DialectRegistry = DIALECT_REGISTRY,
): LegFramer {
  const sniffer = new FramingSniffer(registry);
  let framer: SseFramer | undefined;
  let framing: Framing = 'sse';
  const held: { chunk: Uint8Array; receivedAt: number }[] = [];

  const choose = (decision: Decision): SseFramer => {
    framing = decision.framing;
    framer = framerFor(decision, callbacks, sseOptions);
    for (const { chunk, receivedAt } of held.splice(0)) framer.push(chunk, receivedAt);
    return framer;
  };

  return {
    respond(headers) {
      if (framer) return;
      const lines = announcedLineFraming(headers, registry);
      if (lines) choose({ framing: 'lines', lines });
      else if (isEventStream(headers)) choose({ framing: 'sse' });
    },
    push(chunk, receivedAt) {
      if (framer) return framer.push(chunk, receivedAt);
      if (chunk.length === 0) return;
      // Copied: the caller may reuse its chunk's buffer once push returns.
      held.push({ chunk: chunk.slice(), receivedAt });
      const decided = sniffer.read(chunk);
      if (decided) choose(decided);
    },
    end() {
      return (framer ?? choose(sniffer.read(new Uint8Array(0), true) ?? { framing: 'sse' })).end();
    },
    framing: () => framing,
  };
}
