import type { RuleId } from '../../diagnostics/rules';
import type { DiagnosticLocation } from '../../diagnostics/types';
import type { Frame } from '../../sse/types';
import { NO_EXTRAS, undecodedParts, type EnvelopeInit } from '../../envelope/types';
import type { KIND } from '../../envelope/vocabulary';
import type { DialectCallbacks } from '../types';

/*
 * The item being decoded, as the decoder's parts see it: its frame and data, and the way its
 * envelopes and findings go out, stamped with the frame and the stream's root agent.
 */

export type StreamedType = typeof KIND.text | typeof KIND.thinking;

/** What an Item holds before its first item. */
const NO_FRAME: Frame = {
  seq: -1,
  byteStart: 0,
  byteEnd: 0,
  chunkFirst: 0,
  chunkLast: 0,
  receivedAt: 0,
  event: '',
  data: '',
  id: '',
  dataLines: 0,
  maxDataLineBytes: 0,
};

/** The envelope fields a decoding step chooses; frame and agent are filled in by `emit`. */
export type EnvelopeParts = Omit<EnvelopeInit, 'frame' | 'agent'> & { agent?: string };

/** What the items of one stream report to, and the agent they are stamped with. */
export interface ItemStream {
  callbacks: DialectCallbacks;
  /** The root agent's meta_init uuid, else the `defaultAgent` option. */
  rootAgent: string;
}

/**
 * The item being decoded: methods, not closures per item (an item is one SSE event), and one
 * object per decoder, reset by `start` for each item, since nothing keeps it past its item.
 * The class is the module's, not each decoder's: with a class per decoder, V8 would see a
 * new class for every stream decoded and fall back to its slow generic path.
 */
export class Item implements ItemContext {
  frame: Frame = NO_FRAME;
  data = '';
  private location: DiagnosticLocation | null = null;

  constructor(private readonly stream: ItemStream) {}

  start(frame: Frame, data: string): void {
    this.frame = frame;
    this.data = data;
    this.location = null;
  }

  /** Built when first asked for: most items report nothing. */
  get at(): DiagnosticLocation {
    return (this.location ??= { frame: this.frame.seq, byteStart: this.frame.byteStart, byteEnd: this.frame.byteEnd });
  }

  report(rule: RuleId, message: string): void {
    this.stream.callbacks.onDiagnostic({ rule, message, at: this.at });
  }

  // Fields named one by one, not spread: a spread of objects of varying shapes is slow in V8.
  /** `payload`: the delta as parsed JSON, when it was parsed (reconstruction then need not parse it again). */
  emit(parts: EnvelopeParts, payload?: unknown): void {
    this.stream.callbacks.onEnvelope(
      {
        frame: this.frame.seq,
        agent: parts.agent ?? this.stream.rootAgent,
        type: parts.type,
        final: parts.final,
        delta: parts.delta,
        extras: parts.extras,
        control: parts.control,
      },
      payload,
    );
  }

  /**
   * An envelope of a text or thinking block with no extras: most items are one. No parts
   * object, and the extras object is shared (nothing changes an envelope's extras).
   */
  emitStreamed(type: StreamedType, final: boolean, delta: string, control?: 'block-open'): void {
    this.stream.callbacks.onEnvelope({
      frame: this.frame.seq,
      agent: this.stream.rootAgent,
      type,
      final,
      delta,
      extras: NO_EXTRAS,
      control,
    });
  }

  undecoded(): void {
    this.emit(undecodedParts(this.frame));
  }
}

export interface ItemContext {
  frame: Frame;
  /** The frame's data as a string of its own (see the decoder's `push`). */
  data: string;
  at: DiagnosticLocation;
  report: (rule: RuleId, message: string) => void;
  emit: (parts: EnvelopeParts, payload?: unknown) => void;
  emitStreamed: (type: StreamedType, final: boolean, delta: string, control?: 'block-open') => void;
  undecoded: () => void;
}
