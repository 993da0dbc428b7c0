import type { Detection } from '../dialects/detection';
import { matchEvidence, type ExchangeHints } from '../dialects/evidence';
import type { DialectId } from '../dialects/registry';
import { sniffFrame, type SniffedFrame } from '../dialects/sniff';
import type { DialectDecoder, DialectModule, StreamEndReport } from '../dialects/types';
import type { EnvelopeInit } from '../envelope/types';
import { numberEnvelope } from '../envelope/numbering';
import type { Frame } from '../sse/types';
import { stringifyJson } from '../json/tree';
import { previewText } from '../text/preview';
import type { StreamEnd } from './end-status';
import { DialectFindings } from './dialect-findings';
import { createGzipSignatureCheck } from './gzip-signature';
import { createLegFramer } from './leg-framing';
import { SESSION_FRAMING } from './last-event';
import { classifyControlFrame } from './stream-control';
import type { LegContext, LegDecoder, LegEnd } from './types';
import { KIND } from '../envelope/vocabulary';

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
 * One leg of a session: its bytes → frames (SSE events, a streamed JSON array's elements, or
 * lines: leg-framing.ts) → the dialect detected (or chosen) → envelopes,
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
  let detection: Detection | null = null;
  let hints: ExchangeHints = context.hints ?? {};
  /** Dialects that may take over this leg (checked per frame only when auto-detecting). */
  let successors: readonly DialectModule[] = [];
  let sawDone = false;
  let terminal: StreamEnd['terminal'] = null;
  let streamError: StreamEnd['error'] = null;
  let incomplete: StreamEnd['incomplete'];
  const onStreamEnd = (end: StreamEndReport): void => {
    const frame = current?.seq ?? 0;
    if (end.error !== undefined) streamError = { message: end.error, frame };
    if (end.incomplete !== undefined) incomplete ??= { message: end.incomplete, frame: end.incompleteFrame ?? frame };
    terminal ??= { event: end.event, frame };
  };
  /** The next message of a capture began: the stream ends as that one does (an earlier one's failure stays a finding). */
  const onStreamResumed = (): void => {
    terminal = null;
    streamError = null;
    incomplete = undefined;
  };
  /** The dialect said its stream has no terminal event (DialectCallbacks.onTransportEnd). */
  let transportEnd = false;
  const onTransportEnd = (): void => {
    transportEnd = true;
  };
  const findings = new DialectFindings(report);
  const legReport = findings.add;

  const emit = (init: EnvelopeInit, dialectId: DialectId, payload?: unknown): void => {
    const frame = current?.seq === init.frame ? current : lastPushed?.seq === init.frame ? lastPushed : undefined;
    const envelope = numberEnvelope(init, context.nextEnvelopeSeq(), leg, dialectId, frame);
    stats?.onEnvelope(envelope, frame);
    // An error envelope (the agent's API error event) ends the run in failure.
    if (envelope.type === KIND.error && !envelope.control)
      streamError ??= { message: previewText(envelope.delta, 200), frame: envelope.frame };
    callbacks.onEnvelope?.(envelope);
    context.reconstruct(envelope, payload);
  };

  const createDialect = (chosenModule: DialectModule, why: Detection): DialectDecoder => {
    const id = chosenModule.id as DialectId;
    const decoder = chosenModule.create(
      {
        onEnvelope: (e, payload) => emit(e, id, payload),
        onDiagnostic: legReport,
        onStreamEnd,
        onStreamResumed,
        onTransportEnd,
        // What the events carried names the dialect for some (the fallback): announced again with it.
        onEventData: (data) => {
          if (!detection) return;
          detection = { ...detection, data };
          callbacks.onDialect?.(leg, id, detection);
        },
      },
      {
        chunkBudget,
        defaultAgent: context.rootAgent() ?? '',
        readShapes: context.readShapes ?? true,
        ...(context.prepared ? { prepared: context.prepared } : {}),
      },
    );
    dialect = decoder;
    module = chosenModule;
    detection = why;
    if (sawDone) decoder.done?.();
    findings.decide(chosenModule.id);
    successors = choice === 'auto' ? registry.successorsOf(chosenModule.id) : [];
    callbacks.onDialect?.(leg, id, why);
    return decoder;
  };

  const decide = (chosenModule: DialectModule, why: Detection): void => {
    const decoder = createDialect(chosenModule, why);
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
    route(frame);
  };

  const takeDone = (frame: Frame): void => {
    sawDone = true;
    dialect?.done?.();
    terminal ??= { event: '[DONE]', frame: frame.seq };
    controlEnvelope(frame, { type: '[DONE]', final: true, delta: '', extras: {}, control: 'done' });
  };

  /**
   * `[DONE]` joined to the event before it: that event is decoded as the server meant it and
   * `[DONE]` ends the stream, but the stream ends in error, as every client fails on it.
   */
  const takeJoinedDone = (frame: Frame, head: string): void => {
    if (head !== '') route({ ...frame, data: head, dataLines: frame.dataLines - 1 });
    current = frame;
    const message = `Event ${frame.seq} has [DONE] as its last data line, with no blank line before it: a client reads its data, "…\\n[DONE]", as one message, which is not JSON, and fails (the AI SDK's frontend and OpenAI's SDKs raise on it). The lines before [DONE] are decoded here as the server meant them.`;
    legReport({
      rule: 'stream.done-joined',
      message,
      at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
    });
    streamError ??= {
      message: `Event ${frame.seq} joins [DONE] to the message before it (no blank line between them), and clients fail on it.`,
      frame: frame.seq,
    };
    takeDone(frame);
  };

  /** A frame to the control frames' handling or the dialect (detected first when it is not yet). */
  const route = (frame: Frame): void => {
    const control = classifyControlFrame(frame.data, frame.dataLines);
    if (control?.kind === 'done') return takeDone(frame);
    if (control?.kind === 'joined-done') return takeJoinedDone(frame, control.head);
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
      if (unclaimed) takeOverByClaimant(frame);
      // A leg may turn out to be a dialect that continues the detected one (a continuation
      // leg of a raw stream starts with an agent-layer XML item and only later shows
      // Anthropic events): switch at the first frame the successor claims. Never inside an
      // open text block, where an item is text whatever it holds.
      if (successors.length > 0 && !dialect.insideStreamedBlock?.()) {
        const sniffed = sniffFrame(frame);
        const successor = successors.find((s) => s.detect(sniffed) || s.takesOver?.(sniffed));
        if (successor) {
          dialect.end();
          createDialect(successor, { by: 'content' });
        }
      }
      lastPushed = frame;
      dialect.push(frame);
      return;
    }
    pending.push(frame);
    if (chosen) return decide(chosen, { by: 'chosen' });
    const sniffed = sniffFrame(frame);
    const detected = continuationDialect(registry.detect(sniffed), previousDialect, sniffed);
    // A claim that names no protocol on its own (an error body) counts only as the first event.
    if (detected && (pending.length === 1 || !detected.claimsOnlyFirst?.(sniffed))) decide(detected, { by: 'content' });
    else if (pending.length >= DETECTION_WINDOW)
      decideWithoutClaim(`The first ${DETECTION_WINDOW} events match`, frame.seq);
  };

  /**
   * The leg was decided without any dialect's claim (by the exchange's evidence, or as the
   * fallback): the first later event a dialect claims still wins, and that dialect decodes
   * the rest of the leg (what was shown so far stays as it was decoded).
   */
  let unclaimed = false;
  const takeOverByClaimant = (frame: Frame): void => {
    const sniffed = sniffFrame(frame);
    const claimant = registry.detect(sniffed);
    if (!claimant || claimant.claimsOnlyFirst?.(sniffed)) return;
    unclaimed = false;
    if (claimant === module) return;
    dialect?.end();
    createDialect(claimant, { by: 'content' });
  };

  /**
   * No dialect claimed the events held: the exchange's evidence (a response header, the
   * URL) decides, else the fallback, which claims nothing it cannot know. The finding is at
   * `at`: the event that filled the window, or the first one when the leg ended before.
   */
  const decideWithoutClaim = (events: string, at: number): void => {
    const match = matchEvidence(registry.modules, hints);
    if (match) {
      const named = match.by === 'header' ? `the response header ${match.what}` : `the URL's path ${match.what}`;
      legReport({
        rule: 'stream.format-undetected',
        message: `${events} no dialect's own markers; ${named} names ${match.module.label}, so they are decoded as that.`,
        at: { frame: at },
      });
      decide(match.module, { by: match.by, detail: match.what });
      unclaimed = true;
      return;
    }
    legReport({
      rule: 'stream.format-undetected',
      message: `${events} no dialect, and neither the URL nor a response header names one; shown as ${registry.fallback.label}, each event as it came.`,
      at: { frame: at },
    });
    decide(registry.fallback, { by: 'fallback' });
    unclaimed = true;
  };

  /**
   * The leg's dialect says nothing of how its stream ends (the fallback), or no dialect is
   * known at all (no event, no choice, no earlier leg, no evidence): only the transport's end
   * can be said.
   */
  const knowsNoEnd = (): boolean => {
    const expected = module ?? chosen ?? previousDialect ?? matchEvidence(registry.modules, hints)?.module;
    return expected === undefined || expected.terminator === 'none';
  };

  const framer = createLegFramer(
    { onFrame, onDiagnostic: legReport },
    { maxDataLineBytes: context.maxDataLineBytes, ...SESSION_FRAMING },
    registry,
  );
  if (hints.headers) framer.respond(hints.headers);

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
    hint(more) {
      hints = { ...hints, ...more };
      // The response headers are evidence for the leg's framing too (leg-framing.ts).
      if (more.headers) framer.respond(more.headers);
    },
    framing: () => framer.framing(),
    push(chunk, receivedAt = 0) {
      stats?.onChunk(chunk.byteLength, receivedAt, leg);
      signature.push(chunk);
      framer.push(chunk, receivedAt);
    },
    end() {
      const summary = framer.end();
      if (!dialect && pending.length > 0)
        decideWithoutClaim(
          pending.length === 1 ? 'The only event matches' : `All ${pending.length} events match`,
          pending[0]?.seq ?? 0,
        );
      findings.flush();
      dialect?.end();
      // Dialects with their own terminal event report a missing one themselves.
      if (module?.terminator === 'done-frame' && !terminal && !streamError && summary.frames > 0) {
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
      if (incomplete) stream.incomplete = incomplete;
      const awaited =
        module?.terminator === 'done-frame' ? 'data: [DONE]' : (dialect?.awaitedEnd?.() ?? module?.terminalEvent);
      if (awaited !== undefined) stream.awaited = awaited;
      if (transportEnd) stream.transportOnly = 'protocol';
      else if (knowsNoEnd()) stream.transportOnly = 'unclaimed';
      const end: LegEnd = {
        format: dialect?.id ?? null,
        detection,
        lastEventId: summary.lastEventId,
        retry: summary.retry,
        bytes: summary.bytes,
        stream,
        framing: framer.framing(),
      };
      context.onLegEnd(end);
      return end;
    },
  };
}
