import type { RuleId } from './rules';
import type { Severity } from './severity';

export type { Severity } from './severity';

/**
 * Where a finding points. Byte offsets are absolute offsets in the leg's byte stream;
 * `frame` and `envelope` are sequence numbers. Every field is optional because a finding
 * can be raised before the later stages exist (an ignored SSE line has no envelope).
 */
export interface DiagnosticLocation {
  /** Session leg the offsets refer to; absent means leg 0. */
  leg?: number;
  byteStart?: number;
  byteEnd?: number;
  frame?: number;
  envelope?: number;
  block?: number;
}

/** What a stage reports; the pipeline fills in the severity from the catalogue. */
export interface DiagnosticInit {
  rule: RuleId;
  message: string;
  at: DiagnosticLocation;
}

export interface Diagnostic extends DiagnosticInit {
  seq: number;
  severity: Severity;
}

export type DiagnosticSink = (d: DiagnosticInit) => void;
