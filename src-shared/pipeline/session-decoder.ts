import { createChunkStats, type ChunkStatistics } from '../diagnostics/chunk-stats';
import { RULES, ruleAppliesTo } from '../diagnostics/rules';
import type { Diagnostic, DiagnosticInit } from '../diagnostics/types';
import type { Detection } from '../dialects/detection';
import type { ExchangeHints } from '../dialects/evidence';
import { DIALECT_REGISTRY, type DialectId, type DialectRegistry } from '../dialects/registry';
import { inlineTreatments } from '../dialects/traits';
import type { Envelope } from '../envelope/types';
import { createInlineStage } from '../inline/stage';
import { DEFAULT_INLINE_OPTIONS, type InlineOptions } from '../inline/types';
import { createReconstructor } from '../reconstruct/reconstructor';
import type { Retention } from '../reconstruct/retention';
import type { AgentInfo, Block } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import { createLegDecoder } from './leg-decoder';
import type { DecodeResult, FormatChoice, LegDecoder, LegEnd } from './types';
import type { PreparedEnvelopes } from './prepared';

export interface SessionDecoderCallbacks {
  onFrame?: (frame: Frame, leg: number) => void;
  onEnvelope?: (envelope: Envelope) => void;
  /** Called when a block opens and every time it changes (delta, citation, image, close). */
  onBlock?: (block: Block) => void;
  onAgent?: (agent: AgentInfo) => void;
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  onLegEnd?: (leg: number, end: LegEnd) => void;
  /** A leg's dialect is decided (or a successor takes the leg over), and what chose it. */
  onDialect?: (leg: number, format: DialectId, detection: Detection) => void;
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
   * consumer that never shows them (the CLI) or counts them later from what it keeps (the
   * session store, src-main/services/sessions/store/session-statistics.ts): measuring every
   * envelope's UTF-8 and escaped size is about a fifth of decoding a file, and none of it is
   * a diagnostic.
   */
  statistics?: boolean;
  /**
   * What the reconstructor keeps (src-shared/reconstruct/retention.ts): `all` (the default) or
   * `open`, where closed blocks are counted, not kept (`record`'s flat memory).
   */
  retention?: Retention;
  /** The consumer drops closed blocks' text and reads it back from elsewhere (ReconstructorOptions.releasesClosedText). */
  releasesClosedText?: boolean;
  /** Dialects read their hottest event shapes without JSON.parse (DialectOptions.readShapes); default on. */
  readShapes?: boolean;
  /**
   * Envelopes of healthy events read ahead on other threads (prepared.ts): the parallel decode
   * of a large recording sets it before it pushes each leg's bytes.
   */
  prepared?: PreparedEnvelopes;
}

export interface SessionDecoder {
  /**
   * Open the next leg (the first request, then each tool_results continuation). `hints`: what
   * its exchange says besides the bytes, as far as known now (the request URL; the response
   * headers follow through `LegDecoder.hint`).
   */
  startLeg(options?: { format?: FormatChoice; hints?: ExchangeHints }): LegDecoder;
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

  const stats =
    options.statistics === false
      ? undefined
      : createChunkStats({ budget: chunkBudget, isChunked: (id) => registry.get(id)?.chunked === true });
  /** The envelope being reconstructed: where the inline stage's findings point. */
  let currentEnvelope: Envelope | undefined;
  const inline = createInlineStage(
    options.inline ?? DEFAULT_INLINE_OPTIONS,
    (d) => report(d, d.at.leg ?? 0),
    (block) => {
      const e = currentEnvelope;
      if (!e)
        return {
          block: block.id,
          byteStart: block.byteStart,
          byteEnd: block.byteEnd,
          ...(block.leg !== 0 ? { leg: block.leg } : {}),
        };
      return {
        block: block.id,
        envelope: e.seq,
        frame: e.frame,
        byteStart: e.byteStart,
        byteEnd: e.byteEnd,
        ...(e.leg !== 0 ? { leg: e.leg } : {}),
      };
    },
    inlineTreatments(registry),
  );
  const reconstructor = createReconstructor(
    {
      onBlock: (block) => {
        inline.onBlock(block, currentEnvelope);
        callbacks.onBlock?.(block);
      },
      onAgent: (agent) => callbacks.onAgent?.(agent),
      // Scoped like a leg's own findings: a rule for other dialects than the envelope's is not its finding.
      onDiagnostic: (d) => {
        if (!currentEnvelope || ruleAppliesTo(d.rule, currentEnvelope.dialect)) report(d, d.at.leg ?? 0);
      },
    },
    {
      dialects: registry,
      ...(options.retention ? { retention: options.retention } : {}),
      ...(options.releasesClosedText ? { releasesClosedText: true } : {}),
    },
  );

  function startLeg(legOptions: { format?: FormatChoice; hints?: ExchangeHints } = {}): LegDecoder {
    const leg = legCount++;
    return createLegDecoder({
      ...(legOptions.hints ? { hints: legOptions.hints } : {}),
      leg,
      previousDialect: lastFormat === null ? undefined : registry.get(lastFormat),
      choice: legOptions.format ?? options.format ?? 'auto',
      registry,
      chunkBudget,
      maxDataLineBytes: options.maxDataLineBytes ?? 2048,
      readShapes: options.readShapes ?? true,
      ...(options.prepared ? { prepared: options.prepared } : {}),
      stats,
      callbacks,
      report: (d) => report(d, leg),
      rootAgent: () => reconstructor.rootAgent(),
      nextEnvelopeSeq: () => envelopeSeq++,
      reconstruct: (envelope, payload) => {
        currentEnvelope = envelope;
        reconstructor.push(envelope, payload);
        currentEnvelope = undefined;
      },
      onLegEnd: (end) => {
        lastFormat = end.format ?? lastFormat;
        callbacks.onLegEnd?.(leg, end);
      },
    });
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
  /** Decode one leg from its chunks (sync or async iterable), in order; `hints`: its exchange's URL and headers. */
  decodeLeg(chunks: Iterable<ChunkInput>, hints?: ExchangeHints): void;
  decodeLegAsync(chunks: AsyncIterable<ChunkInput> | Iterable<ChunkInput>, hints?: ExchangeHints): Promise<void>;
  /** No more legs: the whole decoded session (with `stats` unless decoded without statistics). */
  finish(): DecodeResult;
  /** Envelopes decoded so far (a long decode's progress). */
  envelopeCount(): number;
}

export function createCollectingSession(options: SessionDecoderOptions = {}): CollectingSession {
  const frames: Frame[][] = [];
  const envelopes: Envelope[] = [];
  const diagnostics: Diagnostic[] = [];
  const formats: (DialectId | null)[] = [];
  const detections: (Detection | null)[] = [];
  const ends: DecodeResult['ends'] = [];
  const session = createSessionDecoder(
    {
      onFrame: (frame, leg) => (frames[leg] ??= []).push(frame),
      onEnvelope: (e) => envelopes.push(e),
      onDiagnostic: (d) => diagnostics.push(d),
    },
    options,
  );
  const open = (hints: ExchangeHints | undefined): LegDecoder => {
    const leg = session.startLeg(hints ? { hints } : {});
    frames[leg.leg] ??= [];
    return leg;
  };
  const close = (leg: LegDecoder): void => {
    const end = leg.end();
    formats.push(end.format);
    detections.push(end.detection);
    ends.push({
      lastEventId: end.lastEventId,
      retry: end.retry,
      bytes: end.bytes,
      stream: end.stream,
      framing: end.framing,
    });
  };
  return {
    envelopeCount: () => envelopes.length,
    decodeLeg(chunks, hints) {
      const leg = open(hints);
      for (const chunk of chunks) leg.push(chunk.bytes, chunk.receivedAt);
      close(leg);
    },
    async decodeLegAsync(chunks, hints) {
      const leg = open(hints);
      for await (const chunk of chunks) leg.push(chunk.bytes, chunk.receivedAt);
      close(leg);
    },
    finish() {
      session.finish();
      const stats = session.stats();
      return {
        formats,
        detections,
        frames,
        envelopes,
        blocks: [...session.blocks()],
        agents: [...session.agents()],
        diagnostics,
        ...(stats ? { stats } : {}),
        ends,
      };
    },
  };
}

/** Options of the whole-stream decoders, which always keep statistics. */
type WithStatistics = Omit<SessionDecoderOptions, 'statistics'>;

/** Decode whole legs at once (tests, fuzzing, benchmarks). Each leg is a list of network chunks. */
export function decodeLegs(
  legs: readonly (readonly ChunkInput[])[],
  options: WithStatistics = {},
): DecodeResult & { stats: ChunkStatistics } {
  const session = createCollectingSession(options);
  for (const chunks of legs) session.decodeLeg(chunks);
  // Statistics are on (the options cannot turn them off), so finish() returns them.
  return session.finish() as DecodeResult & { stats: ChunkStatistics };
}

/** Decode one byte stream given as a single buffer. */
export function decodeBytes(
  bytes: Uint8Array,
  options: WithStatistics = {},
): DecodeResult & { stats: ChunkStatistics } {
  return decodeLegs([[{ bytes }]], options);
}
