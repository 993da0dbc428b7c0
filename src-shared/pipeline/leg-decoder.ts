import type { ChunkStats } from '../diagnostics/chunk-stats';
import type { DiagnosticInit } from '../diagnostics/types';
import type { DialectId, DialectRegistry } from '../dialects/registry';
import { sniffFrame, type SniffedFrame } from '../dialects/sniff';
import type { DialectDecoder, DialectModule } from '../dialects/types';
import type { Envelope, EnvelopeInit } from '../envelope/types';
import { createSseFramer } from '../sse/framer';
import type { Frame } from '../sse/types';
import { stringifyJson } from '../json/tree';
import { previewText } from '../text/preview';
import type { StreamEnd } from './end-status';
import { DialectFindings } from './dialect-findings';
import { createGzipSignatureCheck } from './gzip-signature';
import { SESSION_FRAMING } from './last-event';
import { classifyControlFrame } from './stream-control';
import type { FormatChoice } from './types';
import { KIND } from '../envelope/vocabulary';

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

/**
 * What a leg shares with its session: the dialect the last leg settled on, the session's
 * numbering of envelopes and findings, its statistics and its reconstructor.
 */
export interface LegContext {
  readonly leg: number;
  /** The dialect the previous leg decoded as: a continuation leg may keep it (continuationDialect). */
  readonly previousDialect: DialectModule | undefined;
  readonly choice: FormatChoice;
  readonly registry: DialectRegistry;
  readonly chunkBudget: number;
  readonly maxDataLineBytes: number;
  readonly stats: ChunkStats | undefined;
  readonly callbacks: { onFrame?: (frame: Frame, leg: number) => void; onEnvelope?: (envelope: Envelope) => void };
  /** A finding of this leg, numbered by the session. */
  readonly report: (diagnostic: DiagnosticInit) => void;
  readonly rootAgent: () => string | undefined;
  readonly nextEnvelopeSeq: () => number;
  /** Builds blocks of a numbered envelope (the inline stage's findings point at it meanwhile). */
  readonly reconstruct: (envelope: Envelope, payload: unknown) => void;
  readonly onLegEnd: (end: LegEnd) => void;
}

/**
 * A continuation leg may start out looking like a dialect the previous leg's dialect
 * continues (a raw session's continuation starts with an agent-layer XML item); the session
 * already knows better.
 */
function continuationDialect(
  detected: DialectModule | undefined,
  previous: DialectModule | undefined,
  frame: SniffedFrame,
): DialectModule | undefined {
  if (previous?.takesOver?.(frame)) return previous;
  return detected && previous?.continues?.includes(detected.id) ? previous : detected;
}

/** How many undecidable content frames to hold before falling back to the fallback dialect. */
const DETECTION_WINDOW = 8;

/**
 * One leg of a session: its bytes → SSE frames → the dialect detected (or chosen) → envelopes,
 * and at its end how the stream ended (docs/diagnostics.md, the stream.* rules).
 */
export function createLegDecoder(context: LegContext): LegDecoder {
  const { leg, previousDialect, choice, registry, chunkBudget, stats, callbacks, report } = context;
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
  const onStreamResumed = (): void => {
    terminal = null;
  };
  const findings = new DialectFindings(report);
  const legReport = findings.add;

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
      seq: context.nextEnvelopeSeq(),
      leg,
      dialect: dialectId,
      byteStart: frame?.byteStart ?? 0,
      byteEnd: frame?.byteEnd ?? 0,
      receivedAt: frame?.receivedAt ?? 0,
    };
    stats?.onEnvelope(envelope, frame);
    // An error envelope (the agent's API error event) ends the run in failure.
    if (envelope.type === KIND.error && !envelope.control)
      streamError ??= { message: previewText(envelope.delta, 200), frame: envelope.frame };
    callbacks.onEnvelope?.(envelope);
    context.reconstruct(envelope, payload);
  };

  const createDialect = (chosenModule: DialectModule): DialectDecoder => {
    const id = chosenModule.id as DialectId;
    const decoder = chosenModule.create(
      { onEnvelope: (e, payload) => emit(e, id, payload), onDiagnostic: legReport, onStreamEnd, onStreamResumed },
      { chunkBudget, defaultAgent: context.rootAgent() ?? '' },
    );
    dialect = decoder;
    module = chosenModule;
    findings.decide(chosenModule.id);
    successors = choice === 'auto' ? registry.successorsOf(chosenModule.id) : [];
    return decoder;
  };

  const decide = (chosenModule: DialectModule): void => {
    const decoder = createDialect(chosenModule);
    findings.flush();
    for (const frame of pending.splice(0)) {
      current = frame;
      lastPushed = frame;
      decoder.push(frame);
    }
  };

  const controlEnvelope = (frame: Frame, init: Omit<EnvelopeInit, 'frame' | 'agent'>): void =>
    emit(
      { frame: frame.seq, agent: context.rootAgent() ?? '', ...init },
      dialect?.id ?? (registry.fallback.id as DialectId),
    );

  const onFrame = (frame: Frame): void => {
    current = frame;
    stats?.onFrame(frame, leg);
    callbacks.onFrame?.(frame, leg);
    if (sawDone) {
      legReport({
        rule: 'stream.after-done',
        message: `Event ${frame.seq} arrived after [DONE]; a client stops reading at [DONE] and never sees it.`,
        at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
      });
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
      legReport({
        rule: 'stream.error-frame',
        message: `Server error ${String(control.error)}: ${message}`,
        at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
      });
      const { error, message: _m, traceback, ...rest } = control.fields;
      controlEnvelope(frame, {
        type: 'error_frame',
        final: true,
        delta: message,
        extras: { error, traceback, ...rest },
        control: 'error-frame',
      });
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
      legReport({
        rule: 'stream.format-undetected',
        message: `The first ${DETECTION_WINDOW} events match no known format; decoding as ${registry.fallback.label}.`,
        at: { frame: frame.seq },
      });
      decide(registry.fallback);
    }
  };

  const framer = createSseFramer(
    { onFrame, onDiagnostic: legReport },
    { maxDataLineBytes: context.maxDataLineBytes, ...SESSION_FRAMING },
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
        legReport({
          rule: 'stream.format-undetected',
          message: `No event matched a known format; decoded ${pending.length} event(s) as ${registry.fallback.label}.`,
          at: { frame: pending[0]?.seq ?? 0 },
        });
        decide(registry.fallback);
      }
      findings.flush();
      dialect?.end();
      // Dialects with their own terminal event report a missing one themselves.
      if (module?.terminator !== 'dialect' && !terminal && !streamError && summary.frames > 0) {
        legReport({
          rule: 'stream.missing-done',
          message: 'The stream ended without data: [DONE]; the run was cut off or the connection dropped.',
          at: { byteStart: summary.bytes },
        });
      }
      const stream: StreamEnd = {
        terminal,
        error: streamError,
        cutMidEvent: summary.endedInsideEvent,
        frames: summary.frames,
      };
      const end: LegEnd = {
        format: dialect?.id ?? null,
        lastEventId: summary.lastEventId,
        retry: summary.retry,
        bytes: summary.bytes,
        stream,
      };
      context.onLegEnd(end);
      return end;
    },
  };
}
