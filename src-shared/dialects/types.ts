import type { DiagnosticSink } from '../diagnostics/types';
import type { EnvelopeInit } from '../envelope/types';
import type { PendingTool } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import type { PreparedEnvelopes } from '../pipeline/prepared';
import type { EventData } from './detection';
import type { DialectEvidence } from './evidence';
import type { DialectId } from './registry';
import type { SniffedFrame } from './sniff';

/** How a dialect's stream ended, as its terminal event says (DialectCallbacks.onStreamEnd). */
export interface StreamEndReport {
  /** The terminal event: `message_stop`, `response.completed`, `finish_reason length`… */
  event: string;
  /** The stream ended in failure (`response.failed`, an error event), and why. */
  error?: string;
  /**
   * The stream ended as its protocol says, but the model's output was cut short (a token
   * limit, a content filter: `response.incomplete`, `finish_reason` `length`), and by what.
   */
  incomplete?: string;
  /**
   * The event that cut the output short, when not the terminal one: Anthropic's stop_reason
   * comes in message_delta, before message_stop ends the stream.
   */
  incompleteFrame?: number;
}

export interface DialectCallbacks {
  /**
   * `payload` is the envelope's delta parsed as JSON, given when the dialect parsed it anyway
   * (an XML attribute checked for `xml.attr-json`): reconstruction then takes it instead of
   * parsing a payload that is this one delta a second time.
   */
  onEnvelope: (envelope: EnvelopeInit, payload?: unknown) => void;
  onDiagnostic: DiagnosticSink;
  /**
   * The frame being decoded is the stream's terminal event in this dialect's protocol
   * (Anthropic Messages `message_stop`, OpenAI Responses `response.completed`). The pipeline
   * recognises `[DONE]` and the router's error frame itself. What the session's end status is
   * built from (pipeline/end-status.ts).
   */
  onStreamEnd?: (end: StreamEndReport) => void;
  /**
   * A new message started after the terminal event of the previous one (a capture holding
   * several responses): the stream is not over until this one ends too.
   */
  onStreamResumed?: () => void;
  /**
   * This stream, as it turned out, is one its protocol gives no terminal event (an MCP GET
   * stream of server messages, which ends when the server closes it): its end status speaks
   * only of the transport, "ended" or "cut off", as the fallback's does.
   */
  onTransportEnd?: () => void;
  /**
   * What its events carried so far changed (the first event, or the first of the other kind):
   * for a dialect labelled by it (DialectModule.dataLabels).
   */
  onEventData?: (data: EventData) => void;
}

export interface DialectOptions {
  /** Budget the upstream chunker aims at (bytes of one SSE message). Default 2048. */
  chunkBudget?: number;
  /**
   * Agent to stamp on items that carry none (XML/raw items, continuation legs that have no
   * meta_init). Set by the session from an earlier leg; '' when unknown.
   */
  defaultAgent?: string;
  /**
   * Read the hottest event shapes without JSON.parse (src-shared/json/shapes.ts); default on.
   * Off, every event goes through JSON.parse: the equivalence tests compare the two.
   */
  readShapes?: boolean;
  /**
   * Envelopes of healthy events read ahead on other threads (src-shared/pipeline/prepared.ts):
   * a dialect that reads events one by one takes an event's envelope from here instead of
   * reading it again. Only what depends on the event alone is read ahead.
   */
  prepared?: PreparedEnvelopes;
}

/**
 * A push decoder from SSE frames to envelopes. `[DONE]` and error frames are recognised
 * before a dialect sees a frame (see pipeline/stream-control.ts), so dialects only get
 * content frames.
 */
export interface DialectDecoder {
  readonly id: DialectId;
  push(frame: Frame): void;
  /** The stream's `data: [DONE]` arrived (the pipeline handles it; a dialect whose wire ends with it may want to know). */
  done?(): void;
  end(): void;
  /**
   * True while a streamed text/thinking block is open, where any item is content whatever it
   * looks like (XML dialect only). The pipeline only re-detects the dialect outside one.
   */
  insideStreamedBlock?(): boolean;
  /**
   * What ends this stream, when what the dialect read says more than its module's
   * `terminalEvent` (a JSON-RPC stream turned out to be MCP's, which ends with its response,
   * or A2A's, which ends with its final status update). Asked once the stream has ended.
   */
  awaitedEnd?(): string | undefined;
}

export type DialectFactory = (callbacks: DialectCallbacks, options?: DialectOptions) => DialectDecoder;

/** One answer the user gave to a tool call the frontend runs. */
export interface ClientToolAnswer {
  readonly toolUseId: string;
  /** The tool's output; for an approval, the reason given ('' for none). */
  readonly content: string;
  readonly isError?: boolean;
  /** Set for a call that waited for its approval (PendingTool.approvalId): approved or denied. */
  readonly approved?: boolean;
}

/**
 * How a frontend continues a run of this dialect that paused on tools it runs itself (the AI
 * SDK's `addToolResult`, AG-UI's tool messages). The dialect reports the pause as an
 * `awaiting_frontend_tools` envelope; the session service asks this hook for the next request
 * and runs it as the session's next leg, with no dialect-specific code of its own.
 */
export interface ClientToolContinuation {
  /**
   * The body of the request that continues the run: `previousBody` is the body of the leg
   * that paused (JSON text as sent), `calls` the calls it paused on, `answers` the user's,
   * and `pause` the whole `awaiting_frontend_tools` payload the dialect emitted (parsed), with
   * whatever else it noted there for the continuation (the AI SDK's assistant message so far).
   * Throws with a message the user can act on when the previous body cannot be continued.
   */
  continueBody(input: {
    previousBody: string;
    calls: readonly PendingTool[];
    answers: readonly ClientToolAnswer[];
    pause?: unknown;
  }): string;
  /**
   * The answers a continuation's body carries, read back (what a recording's next leg sent:
   * a replay offers them as the recorded answers); the inverse of continueBody. `calls`: the
   * calls it answered (an API that answers by tool name and order needs them). Null when the
   * body is not one this dialect's continuation sends.
   */
  answersIn?(body: string, calls: readonly PendingTool[]): ClientToolAnswer[] | null;
}

/** What the inspector makes of a block kind a dialect adds (DialectModule.blockKinds). */
export interface BlockKindTraits {
  /** What the blocks view calls it; the kind itself when absent. */
  readonly label?: string;
  /**
   * What the in-text stage does with its blocks (docs/inline.md): `parse` the model's text in
   * them for the protocols written inside (markers, tool tags, JSON calls), as it does for
   * `text` blocks in every dialect; or describe each block as the one `segment` it already is
   * (its opening envelope's `metadata`, its content), shown as the stage's segments are.
   */
  readonly inline?: 'parse' | 'segment';
}

/**
 * A wire that is not SSE but one event per line (the AI SDK's v4 data stream, `CODE:JSON`):
 * what tells a leg is in it, and when its last line is whole. A leg is framed by lines only on
 * this positive evidence (pipeline/leg-framing.ts), and by SSE otherwise.
 */
export interface LineFraming {
  /** Response headers that announce the wire, [name, value] (either compared case-insensitively). */
  readonly headers: readonly (readonly [string, string])[];
  /** How many bytes of a leg's start (after a BOM) `startsLike` needs; it gets fewer only when the leg is shorter. */
  readonly prefixBytes: number;
  /** Whether a leg starting with this text is in the wire (when no response header said). */
  startsLike(prefix: string): boolean;
  /** Whether a last line without its line ending is a whole event (decoded) or was cut (reported). */
  isComplete(line: string): boolean;
}

/**
 * One wire dialect as a plug-in: everything the rest of the inspector needs to know about it.
 * The registry (registry.ts) lists these; every other list of dialects derives from it.
 */
export interface DialectModule<Id extends string = string> {
  readonly id: Id;
  /** What the connect form and the CLI's help call it. */
  readonly label: string;
  /**
   * What a session decoded as it is called once its events are known, when that depends on
   * their data (the fallback takes JSON and plain text alike): the one table of those labels.
   * The decoder reports the data as it sees it (DialectCallbacks.onEventData).
   */
  readonly dataLabels?: Readonly<Record<EventData, string>>;
  /**
   * Whether this frame (one of a leg's first content frames) is in this dialect. Detection
   * runs before any decoder exists; the claims of the registered dialects never overlap, so
   * their order does not matter. Returning false leaves the frame to the others (and, after
   * a few undecided frames, to the fallback dialect).
   */
  readonly detect: (frame: SniffedFrame) => boolean;
  readonly create: DialectFactory;
  /**
   * Dialects a stream of this one can start out looking like: a leg detected as one of them
   * after a leg of this dialect is this dialect, and a leg decoded as one of them switches
   * to this one (outside a streamed block) at the first frame this dialect claims.
   */
  readonly continues?: readonly string[];
  /**
   * Frames this dialect also claims, besides `detect`'s, where the session already knows it
   * (in a leg being decoded as a dialect it continues, and in a leg after one of its own):
   * `detect` may need markers that such a leg lacks.
   */
  readonly takesOver?: (frame: SniffedFrame) => boolean;
  /**
   * Of the frames `detect` claims, those that do not name the protocol on their own: an error
   * body any server may send (`{"error": {"message": …}}`). One decides a leg only as its first
   * content event, where it stands in for the stream the API refused; after events no dialect
   * claimed, it says nothing of what they were, so it neither decides the leg nor switches a
   * leg shown as the fallback (docs/dialects.md, "How a dialect is chosen").
   */
  readonly claimsOnlyFirst?: (frame: SniffedFrame) => boolean;
  /** The syntax of its events' data, for showing them: raw mixes JSON events with XML items. */
  readonly syntax: 'json' | 'xml' | 'json+xml';
  /**
   * How the stream says it is over: `[DONE]` (the agent servers), the dialect's own terminal
   * event, or `none` for a dialect that knows no terminal event (the generic fallback): its
   * end status then speaks only of the transport (ended between events, or cut inside one).
   */
  readonly terminator: 'done-frame' | 'dialect' | 'none';
  /**
   * With terminator `dialect`: the event that ends its streams, as the end status names it when
   * it never came ("message_stop", "RUN_FINISHED or RUN_ERROR"). A `done-frame` stream's is
   * `data: [DONE]`.
   */
  readonly terminalEvent?: string;
  /**
   * What besides the bytes says a stream is in this dialect: its endpoints' URL paths and the
   * response headers its servers send. Consulted only when no dialect claims the leg's first
   * events; the bytes win whenever one does (docs/dialects.md, "Evidence beyond the bytes").
   */
  readonly evidence?: DialectEvidence;
  /** Envelopes are chunked against the upstream budget, so escaping and fullness statistics apply. */
  readonly chunked?: boolean;
  /**
   * Carries the agent layer's XML items (meta_init, tool_result…), which name no agent: the diff
   * cannot attribute sub-agents on such a side and reads its tool results' newlines as XML.
   */
  readonly agentXmlItems?: boolean;
  /** Every envelope names its agent (multi-agent streams can be told apart). */
  readonly attributesAgents?: boolean;
  /**
   * A format of the upstream agent server, whose two generations (legacy, agent_base) differ in
   * their payloads (docs/protocols/upstream-protocol.md §10): the diff tells them apart on such
   * a side only, and names no generation for a stream of anyone else.
   */
  readonly serverGenerations?: boolean;
  /**
   * Its text travels as XML character data, unescaped: a CR in a delta ends the SSE line and
   * what follows it is lost, and citations leave empty fields out. The diff explains those
   * differences against a side of another dialect, and suggests such a session as the left
   * side (the older format).
   */
  readonly textAsXml?: boolean;
  /**
   * Its blocks have no start event: a block begins with its first envelope and ends with its
   * final one, so a streamed block still open when a block of another kind begins may never get
   * its final envelope; reconstruction marks it and reports it if its kind streams on
   * (`block.not-finalised`).
   */
  readonly blocksWithoutStart?: boolean;
  /**
   * Block kinds of its own, beyond the envelope vocabulary's (src-shared/envelope/vocabulary.ts),
   * and what the stages after the decoder make of them.
   */
  readonly blockKinds?: Readonly<Record<string, BlockKindTraits>>;
  /** Runs of this dialect pause on tools the frontend runs, and this is how they continue. */
  readonly clientTools?: ClientToolContinuation;
  /** The dialect also comes line-framed instead of as SSE, and this is how a leg says so. */
  readonly lineFramed?: LineFraming;
}
