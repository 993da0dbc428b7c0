import type { Diagnostic } from '../diagnostics/types';
import type { ChunkStatistics } from '../diagnostics/chunk-stats';
import type { Detection } from '../dialects/detection';
import type { DialectId } from '../dialects/registry';
import type { Envelope } from '../envelope/types';
import type { AgentInfo, Block } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import type { StreamEnd } from './end-status';
import type { Framing } from './leg-framing';

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
