import type { Diagnostic, DiagnosticInit } from '../diagnostics/types';
import type { ChunkStatistics, ChunkStats } from '../diagnostics/chunk-stats';
import type { Detection } from '../dialects/detection';
import type { ExchangeHints } from '../dialects/evidence';
import type { DialectId, DialectRegistry } from '../dialects/registry';
import type { DialectModule } from '../dialects/types';
import type { Envelope } from '../envelope/types';
import type { AgentInfo, Block } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import type { StreamEnd } from './end-status';
import type { Framing } from './leg-framing';
import type { PreparedEnvelopes } from './prepared';

export type FormatChoice = DialectId | 'auto';

/** Everything one decoded session holds; what the CLI prints and the tests compare. */
export interface DecodeResult {
  /** Per leg: the dialect that decoded it (null when nothing could be detected). */
  formats: (DialectId | null)[];
  /** Per leg: what chose its dialect (docs/dialects.md, "How a dialect is chosen"). */
  detections: (Detection | null)[];
  frames: Frame[][];
  envelopes: Envelope[];
  blocks: Block[];
  agents: AgentInfo[];
  diagnostics: Diagnostic[];
  /** Absent when decoded without statistics (SessionDecoderOptions.statistics). */
  stats?: ChunkStatistics;
  /** Per leg: WHATWG end state, what ended the stream, and how its bytes were framed. */
  ends: { lastEventId: string; retry: number | null; bytes: number; stream: StreamEnd; framing: Framing }[];
}

export interface LegEnd {
  format: DialectId | null;
  /** What chose the format (null when no event was decoded). */
  detection: Detection | null;
  lastEventId: string;
  retry: number | null;
  bytes: number;
  /** What ended the stream: its terminal event, an error, or a cut (see endStatusOf). */
  stream: StreamEnd;
  /** How its bytes were framed: SSE, or one event per line (leg-framing.ts). */
  framing: Framing;
}

export interface LegDecoder {
  readonly leg: number;
  /**
   * What the leg's exchange says besides its bytes: the request URL when the leg opens, the
   * response headers when they arrive. Consulted only if no dialect claims the first events.
   */
  hint(hints: ExchangeHints): void;
  push(chunk: Uint8Array, receivedAt?: number): void;
  end(): LegEnd;
  /** How the leg's bytes are framed, so far (see LegEnd.framing). */
  framing(): Framing;
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
  /** DialectOptions.readShapes; default on. */
  readonly readShapes?: boolean;
  readonly stats: ChunkStats | undefined;
  readonly callbacks: {
    onFrame?: (frame: Frame, leg: number) => void;
    onEnvelope?: (envelope: Envelope) => void;
    /** The leg's dialect is decided (again, when a successor takes over), and why. */
    onDialect?: (leg: number, format: DialectId, detection: Detection) => void;
  };
  /** What the exchange said before the leg decoder existed (the request URL). */
  readonly hints?: ExchangeHints;
  /** A finding of this leg, numbered by the session. */
  readonly report: (diagnostic: DiagnosticInit) => void;
  readonly rootAgent: () => string | undefined;
  readonly nextEnvelopeSeq: () => number;
  /** Builds blocks of a numbered envelope (the inline stage's findings point at it meanwhile). */
  readonly reconstruct: (envelope: Envelope, payload: unknown) => void;
  readonly onLegEnd: (end: LegEnd) => void;
  /** Envelopes of this leg's events read ahead on other threads (DialectOptions.prepared). */
  readonly prepared?: PreparedEnvelopes;
}
