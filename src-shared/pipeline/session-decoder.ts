import { createChunkStats, type ChunkStatistics } from '../diagnostics/chunk-stats';
import { ruleAppliesTo, ruleDialects, RULES } from '../diagnostics/rules';
import type { Diagnostic, DiagnosticInit } from '../diagnostics/types';
import { DIALECT_REGISTRY, type DialectId, type DialectRegistry } from '../dialects/registry';
import { sniffFrame, type SniffedFrame } from '../dialects/sniff';
import type { DialectDecoder, DialectModule } from '../dialects/types';
import type { Envelope, EnvelopeInit } from '../envelope/types';
import { createInlineStage } from '../inline/stage';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from '../inline/types';
import { createReconstructor } from '../reconstruct/reconstructor';
import type { Retention } from '../reconstruct/retention';
import type { AgentInfo, Block } from '../reconstruct/types';
import { createSseFramer } from '../sse/framer';
import type { Frame } from '../sse/types';
import { SESSION_FRAMING } from './last-event';
import { classifyControlFrame } from './stream-control';
import type { DecodeResult, FormatChoice } from './types';
import type { StreamEnd } from './end-status';
import { previewText } from '../text/preview';
import { stringifyJson } from '../json/tree';

export interface SessionDecoderCallbacks {
  onFrame?: (frame: Frame, leg: number) => void;
  onEnvelope?: (envelope: Envelope) => void;
  /** Called when a block opens and every time it changes (delta, citation, image, close). */
  onBlock?: (block: Block) => void;
  onAgent?: (agent: AgentInfo) => void;
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  onLegEnd?: (leg: number, end: LegEnd) => void;
}

export interface SessionDecoderOptions {
  format?: FormatChoice;
  /** Budget for one data: line (sse.oversize-line). Default 2048. */
  maxDataLineBytes?: number;
  /** The upstream chunker's budget (chunk fullness, envelope.over-budget). Default 2048. */
  chunkBudget?: number;
  /** The inline stage over text blocks (docs/inline.md). Default: auto with the default tool tags. */
  inline?: InlineOptions;
  /** The dialects to detect and decode with; the built-in registry by default (tests add their own). */
  dialects?: DialectRegistry;
  /**
   * Chunk statistics (sizes, timing, escaping and fullness per type); default on. Off for a
   * consumer that never shows them (the CLI): measuring every envelope's UTF-8 and escaped
   * size is about a fifth of decoding a file, and none of it is a diagnostic.
   */
  statistics?: boolean;
  /**
   * What the reconstructor keeps (src-shared/reconstruct/retention.ts): `all` (the default) or
   * `open`, where closed blocks are counted, not kept (`record`'s flat memory).
   */
  retention?: Retention;
}

export interface LegEnd {
  format: DialectId | null;
  lastEventId: string;
  retry: number | null;
  bytes: number;
  /** What ended the stream: its terminal event, an error, or a cut (see endStatusOf). */
  stream: StreamEnd;
}

export interface LegDecoder {
  readonly leg: number;
  push(chunk: Uint8Array, receivedAt?: number): void;
  end(): LegEnd;
}

export interface SessionDecoder {
  /** Open the next leg (the first request, then each tool_results continuation). */
  startLeg(options?: { format?: FormatChoice }): LegDecoder;
  /** No more legs: report what is left open (unterminated blocks, calls without results). */
  finish(): void;
  /** The blocks held: all of them unless `retention` is `open`. */
  blocks(): readonly Block[];
  agents(): readonly AgentInfo[];
  /** Blocks and agents seen, whatever was kept. */
  counts(): { blocks: number; agents: number };
  /** Undefined when decoding without statistics. */
  stats(): ChunkStatistics | undefined;
  /** Parse every text block again with other inline options; each text block is reported through onBlock. */
  setInline(options: InlineOptions): void;
  inline(): InlineOptions;
  /** Characters of a live text block the inline parser holds back (a marker not yet decided). */
  inlineHeld(block: Block): number;
}

/**
 * A continuation leg may start out looking like a dialect the previous leg's dialect
 * continues (a raw session's continuation starts with an agent-layer XML item); the session
 * already knows better.
 */
function continuationDialect(detected: DialectModule | undefined, previous: DialectModule | undefined, frame: SniffedFrame): DialectModule | undefined {
  if (previous?.takesOver?.(frame)) return previous;
  return detected && previous?.continues?.includes(detected.id) ? previous : detected;
}

/** How many undecidable content frames to hold before falling back to the fallback dialect. */
const DETECTION_WINDOW = 8;

/**
 * The one shared decoder: bytes → SSE frames → dialect envelopes → blocks, with chunk
 * statistics and diagnostics from every stage. Main, the CLI and the tests all use it.
 */
export function createSessionDecoder(
  callbacks: SessionDecoderCallbacks = {},
  options: SessionDecoderOptions = {},
): SessionDecoder {
  const chunkBudget = options.chunkBudget ?? 2048;
  const registry = options.dialects ?? DIALECT_REGISTRY;
  let diagnosticSeq = 0;
  let envelopeSeq = 0;
  let legCount = 0;
  let lastFormat: DialectId | null = null;

  const report = (init: DiagnosticInit, leg: number): void => {
    // Fields named, not spread: a spread of `init` runs V8's slow generic clone.
    const diagnostic: Diagnostic = {
      rule: init.rule,
      message: init.message,
      at: leg === 0 ? init.at : { ...init.at, leg },
      seq: diagnosticSeq++,
      severity: RULES[init.rule].severity,
    };
    callbacks.onDiagnostic?.(diagnostic);
  };

  const stats = options.statistics === false ? undefined : createChunkStats({ budget: chunkBudget, isChunked: (id) => registry.get(id)?.chunked === true });
  /** The envelope being reconstructed: where the inline stage's findings point. */
  let currentEnvelope: Envelope | undefined;
  const inline = createInlineStage(options.inline ?? DEFAULT_INLINE_OPTIONS, (d) => report(d, d.at.leg ?? 0), (block) => {
    const e = currentEnvelope;
    if (!e) return { block: block.id, byteStart: block.byteStart, byteEnd: block.byteEnd, ...(block.leg !== 0 ? { leg: block.leg } : {}) };
    return { block: block.id, envelope: e.seq, frame: e.frame, byteStart: e.byteStart, byteEnd: e.byteEnd, ...(e.leg !== 0 ? { leg: e.leg } : {}) };
  });
  const reconstructor = createReconstructor({
    onBlock: (block) => {
      inline.onBlock(block, currentEnvelope);
      callbacks.onBlock?.(block);
    },
    onAgent: (agent) => callbacks.onAgent?.(agent),
    onDiagnostic: (d) => report(d, d.at.leg ?? 0),
  }, options.retention ? { retention: options.retention } : {});

  function startLeg(legOptions: { format?: FormatChoice } = {}): LegDecoder {
    const leg = legCount++;
    const previousDialect = lastFormat === null ? undefined : registry.get(lastFormat);
    const choice = legOptions.format ?? options.format ?? 'auto';
    const chosen = choice === 'auto' ? undefined : registry.get(choice);
    if (choice !== 'auto' && !chosen) throw new Error(`unknown dialect ${choice}`);
    /**
     * The frame a dialect is decoding: dialects emit envelopes only while one of their frames
     * is pushed, or at `end()` for the last frame they were pushed (a provider stream cut
     * before its terminal event closes its message there, after a `[DONE]` or an error frame
     * it never saw may have come), so no other frame is kept after its envelopes (a live leg
     * may run for hours).
     */
    let current: Frame | undefined;
    let lastPushed: Frame | undefined;
    const pending: Frame[] = [];
    let dialect: DialectDecoder | null = null;
    let module: DialectModule | undefined;
    /** Dialects that may take over this leg (checked per frame only when auto-detecting). */
    let successors: readonly DialectModule[] = [];
    let sawDone = false;
    let terminal: StreamEnd['terminal'] = null;
    let streamError: StreamEnd['error'] = null;
    const onStreamEnd = (end: { event: string; error?: string }): void => {
      const frame = current?.seq ?? 0;
      if (end.error !== undefined) streamError = { message: end.error, frame };
      terminal ??= { event: end.event, frame };
    };
    /** Findings of dialect-specific rules raised before the leg's dialect was known (the framer's, during detection). */
    let undecided: DiagnosticInit[] = [];
    const onStreamResumed = (): void => {
      terminal = null;
    };
    const legReport = (d: DiagnosticInit): void => {
      if (!module && ruleDialects(d.rule)) undecided.push(d);
      else if (ruleAppliesTo(d.rule, module?.id)) report(d, leg);
    };
    /** Reports the held findings that apply to the dialect now decided (all of them when none ever is). */
    const flushUndecided = (): void => {
      const held = undecided;
      undecided = [];
      for (const d of held) if (ruleAppliesTo(d.rule, module?.id)) report(d, leg);
    };

    const emit = (init: EnvelopeInit, dialectId: DialectId, payload?: unknown): void => {
      const frame = current?.seq === init.frame ? current : lastPushed?.seq === init.frame ? lastPushed : undefined;
      // Every field named, in one order: envelopes of all dialects share one object shape.
      // A spread of `init`, whose shape varies by dialect and control kind, runs V8's slow
      // generic object clone and costs more than the rest of this stage.
      const envelope: Envelope = {
        frame: init.frame,
        agent: init.agent,
        type: init.type,
        final: init.final,
        delta: init.delta,
        extras: init.extras,
        control: init.control,
        unified: init.unified,
        seq: envelopeSeq++,
        leg,
        dialect: dialectId,
        byteStart: frame?.byteStart ?? 0,
        byteEnd: frame?.byteEnd ?? 0,
        receivedAt: frame?.receivedAt ?? 0,
      };
      stats?.onEnvelope(envelope, frame);
      // An error envelope (the agent's API error event) ends the run in failure.
      if (envelope.type === 'error' && !envelope.control) streamError ??= { message: previewText(envelope.delta, 200), frame: envelope.frame };
      callbacks.onEnvelope?.(envelope);
      currentEnvelope = envelope;
      reconstructor.push(envelope, payload);
      currentEnvelope = undefined;
    };

    const createDialect = (chosenModule: DialectModule): DialectDecoder => {
      const id = chosenModule.id as DialectId;
      const decoder = chosenModule.create(
        { onEnvelope: (e, payload) => emit(e, id, payload), onDiagnostic: legReport, onStreamEnd, onStreamResumed },
        { chunkBudget, defaultAgent: reconstructor.rootAgent() ?? '' },
      );
      dialect = decoder;
      module = chosenModule;
      successors = choice === 'auto' ? registry.successorsOf(chosenModule.id) : [];
      return decoder;
    };

    const decide = (chosenModule: DialectModule): void => {
      const decoder = createDialect(chosenModule);
      flushUndecided();
      for (const frame of pending.splice(0)) {
        current = frame;
        lastPushed = frame;
        decoder.push(frame);
      }
    };

    const controlEnvelope = (frame: Frame, init: Omit<EnvelopeInit, 'frame' | 'agent'>): void =>
      emit({ frame: frame.seq, agent: reconstructor.rootAgent() ?? '', ...init }, dialect?.id ?? (registry.fallback.id as DialectId));

    const onFrame = (frame: Frame): void => {
      current = frame;
      stats?.onFrame(frame, leg);
      callbacks.onFrame?.(frame, leg);
      if (sawDone) {
        legReport({ rule: 'stream.after-done', message: `Event ${frame.seq} arrived after [DONE]; a client stops reading at [DONE] and never sees it.`, at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd } });
      }
      const control = classifyControlFrame(frame.data);
      if (control?.kind === 'done') {
        sawDone = true;
        terminal ??= { event: '[DONE]', frame: frame.seq };
        controlEnvelope(frame, { type: '[DONE]', final: true, delta: '', extras: {}, control: 'done' });
        return;
      }
      if (control?.kind === 'error-frame') {
        const message = typeof control.message === 'string' ? control.message : (stringifyJson(control.message) ?? '');
        streamError = { message: `${String(control.error)}: ${message}`, frame: frame.seq };
        legReport({ rule: 'stream.error-frame', message: `Server error ${String(control.error)}: ${message}`, at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd } });
        const { error, message: _m, traceback, ...rest } = control.fields;
        controlEnvelope(frame, { type: 'error_frame', final: true, delta: message, extras: { error, traceback, ...rest }, control: 'error-frame' });
        return;
      }
      if (dialect) {
        // A leg may turn out to be a dialect that continues the detected one (a continuation
        // leg of a raw stream starts with an agent-layer XML item and only later shows
        // Anthropic events): switch at the first frame the successor claims. Never inside an
        // open text block, where an item is text whatever it holds.
        if (successors.length > 0 && !dialect.insideStreamedBlock?.()) {
          const sniffed = sniffFrame(frame);
          const successor = successors.find((s) => s.detect(sniffed) || s.takesOver?.(sniffed));
          if (successor) {
            dialect.end();
            createDialect(successor);
          }
        }
        lastPushed = frame;
        dialect.push(frame);
        return;
      }
      pending.push(frame);
      const sniffed = sniffFrame(frame);
      const detected = chosen ?? continuationDialect(registry.detect(sniffed), previousDialect, sniffed);
      if (detected) {
        decide(detected);
      } else if (pending.length >= DETECTION_WINDOW) {
        legReport({ rule: 'stream.format-undetected', message: `The first ${DETECTION_WINDOW} events match no known format; decoding as ${registry.fallback.label}.`, at: { frame: frame.seq } });
        decide(registry.fallback);
      }
    };

    const framer = createSseFramer(
      { onFrame, onDiagnostic: legReport },
      { maxDataLineBytes: options.maxDataLineBytes ?? 2048, ...SESSION_FRAMING },
    );

    const signature = createGzipSignatureCheck(() =>
      legReport({
        rule: 'stream.compressed-body',
        message:
          'The body starts with 1f 8b, the gzip signature, but no Content-Encoding says it is compressed: it is decoded as text, and what follows is garbage. Decompress it first, or ask the server for an uncompressed stream (remove Accept-Encoding).',
        at: { byteStart: 0, byteEnd: 2 },
      }),
    );

    return {
      leg,
      push(chunk, receivedAt = 0) {
        stats?.onChunk(chunk.byteLength, receivedAt, leg);
        signature.push(chunk);
        framer.push(chunk, receivedAt);
      },
      end() {
        const summary = framer.end();
        if (!dialect && pending.length > 0) {
          legReport({ rule: 'stream.format-undetected', message: `No event matched a known format; decoded ${pending.length} event(s) as ${registry.fallback.label}.`, at: { frame: pending[0]?.seq ?? 0 } });
          decide(registry.fallback);
        }
        flushUndecided();
        dialect?.end();
        // Dialects with their own terminal event report a missing one themselves.
        if (module?.terminator !== 'dialect' && !terminal && !streamError && summary.frames > 0) {
          legReport({ rule: 'stream.missing-done', message: 'The stream ended without data: [DONE]; the run was cut off or the connection dropped.', at: { byteStart: summary.bytes } });
        }
        lastFormat = dialect?.id ?? lastFormat;
        const stream: StreamEnd = { terminal, error: streamError, cutMidEvent: summary.endedInsideEvent, frames: summary.frames };
        const end: LegEnd = { format: dialect?.id ?? null, lastEventId: summary.lastEventId, retry: summary.retry, bytes: summary.bytes, stream };
        callbacks.onLegEnd?.(leg, end);
        return end;
      },
    };
  }

  return {
    startLeg,
    finish() {
      reconstructor.end();
      for (const block of inline.finish(reconstructor.blocks())) callbacks.onBlock?.(block);
    },
    blocks: () => reconstructor.blocks(),
    agents: () => reconstructor.agents(),
    counts: () => reconstructor.counts(),
    stats: () => stats?.snapshot(),
    setInline(next) {
      const blocks = reconstructor.blocks();
      inline.reconfigure(next, blocks);
      for (const block of blocks) if (block.segments) callbacks.onBlock?.(block);
    },
    inline: () => inline.options(),
    inlineHeld: (block) => inline.held(block),
  };
}

export interface ChunkInput {
  bytes: Uint8Array;
  receivedAt?: number;
}

/** A session decoder that keeps everything it decodes: for the CLI, tests and file import. */
export interface CollectingSession {
  /** Decode one leg from its chunks (sync or async iterable), in order. */
  decodeLeg(chunks: Iterable<ChunkInput>): void;
  decodeLegAsync(chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>): Promise<void>;
  /** No more legs: the whole decoded session (with `stats` unless decoded without statistics). */
  finish(): DecodeResult;
}

/** Calls `onGzip` once when a stream's first two bytes, however chunked, are gzip's signature. */
function createGzipSignatureCheck(onGzip: () => void): { push(chunk: Uint8Array): void } {
  let seen = 0;
  let first = -1;
  return {
    push(chunk) {
      for (let i = 0; i < chunk.length && seen < 2; i++, seen++) {
        if (seen === 0) first = chunk[i] as number;
        else if (first === 0x1f && chunk[i] === 0x8b) onGzip();
      }
    },
  };
}

export function createCollectingSession(options: SessionDecoderOptions = {}): CollectingSession {
  const frames: Frame[][] = [];
  const envelopes: Envelope[] = [];
  const diagnostics: Diagnostic[] = [];
  const formats: (DialectId | null)[] = [];
  const ends: DecodeResult['ends'] = [];
  const session = createSessionDecoder(
    {
      onFrame: (frame, leg) => (frames[leg] ??= []).push(frame),
      onEnvelope: (e) => envelopes.push(e),
      onDiagnostic: (d) => diagnostics.push(d),
    },
    options,
  );
  const open = (): LegDecoder => {
    const leg = session.startLeg();
    frames[leg.leg] ??= [];
    return leg;
  };
  const close = (leg: LegDecoder): void => {
    const end = leg.end();
    formats.push(end.format);
    ends.push({ lastEventId: end.lastEventId, retry: end.retry, bytes: end.bytes, stream: end.stream });
  };
  return {
    decodeLeg(chunks) {
      const leg = open();
      for (const chunk of chunks) leg.push(chunk.bytes, chunk.receivedAt);
      close(leg);
    },
    async decodeLegAsync(chunks) {
      const leg = open();
      for await (const chunk of chunks) leg.push(chunk.bytes, chunk.receivedAt);
      close(leg);
    },
    finish() {
      session.finish();
      const stats = session.stats();
      return { formats, frames, envelopes, blocks: [...session.blocks()], agents: [...session.agents()], diagnostics, ...(stats ? { stats } : {}), ends };
    },
  };
}

/** Options of the whole-stream decoders, which always keep statistics. */
type WithStatistics = Omit<SessionDecoderOptions, 'statistics'>;

/** Decode whole legs at once (tests, fuzzing, benchmarks). Each leg is a list of network chunks. */
export function decodeLegs(legs: readonly (readonly ChunkInput[])[], options: WithStatistics = {}): DecodeResult & { stats: ChunkStatistics } {
  const session = createCollectingSession(options);
  for (const chunks of legs) session.decodeLeg(chunks);
  // Statistics are on (the options cannot turn them off), so finish() returns them.
  return session.finish() as DecodeResult & { stats: ChunkStatistics };
}

/** Decode one byte stream given as a single buffer. */
export function decodeBytes(bytes: Uint8Array, options: WithStatistics = {}): DecodeResult & { stats: ChunkStatistics } {
  return decodeLegs([[{ bytes }]], options);
}
