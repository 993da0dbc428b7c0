import type { Failure, LegEndInfo, LegInfo } from '../../../../src-shared/contract/payloads';
import type { Detection } from '../../../../src-shared/dialects/detection';
import type { DialectId } from '../../../../src-shared/dialects/registry';
import type { StreamEnd } from '../../../../src-shared/pipeline/end-status';
import type { LegDecoder } from '../../../../src-shared/pipeline/types';
import type { Framing } from '../../../../src-shared/pipeline/leg-framing';
import type { RecordedRequest, RecordedResponse } from '../../../../src-shared/recording/types';
import type { FrameTable } from './envelope-table';
import type { RawChunks } from './raw-chunks';

/** One leg of a session in the store: a request and its response stream, as received and as decoded. */
export type LegKind = LegInfo['kind'];

export interface LegState {
  readonly index: number;
  readonly kind: LegKind;
  /** The request as sent, secrets intact: it never leaves main unredacted. */
  readonly request: RecordedRequest | null;
  response: RecordedResponse | null;
  readonly startedAt: number;
  endedAt?: number;
  readonly raw: RawChunks;
  /** Bytes of a response that was not decoded (an error page), kept apart from the stream. */
  readonly rejected: RawChunks;
  /** The leg's frames (without their data) and the first envelope of each. */
  readonly frames: FrameTable;
  /** The dialect decoding the leg, once one is decided, and what chose it. */
  format: DialectId | null;
  detection: Detection | null;
  end?: LegEndInfo;
  failure?: Failure;
  /** What ended the leg's stream, once the leg ended. */
  stream?: StreamEnd;
  /** How the leg's bytes were framed, once the leg ended (its decoder says while it is open). */
  framing?: Framing;
  lastEventId: string;
  retry: number | null;
  decoder: LegDecoder | null;
  /** Seq of the leg's first envelope (envelopeCount at the time the leg opened). */
  readonly firstEnvelope: number;
  /** Envelopes that are agent content (not [DONE], error frames or other control items). */
  contentEnvelopes: number;
}
