import {
  faultAfterDone,
  faultConnectionDrop,
  faultOversizeLine,
  faultRawCr,
  faultRawNewline,
  faultTruncated,
} from './faults-framing';
import { faultBadXml, faultMalformedJson, faultRetryReplay, faultUnknownType } from './faults-payload';
import type { Scenario } from './scenario';

/**
 * Streams with one known defect each, so every diagnostic of the inspector can be shown on
 * a live server. Where the upstream itself produces the defect (CR in xml text, unchunked
 * xml/raw items, a retried call, a paused-then-resumed agent) the bytes are the formatter's;
 * elsewhere they are hand-made and labelled.
 *
 * Faults of the framing are in faults-framing.ts, of the payloads in faults-payload.ts.
 */

export const FAULT_SCENARIOS: readonly Scenario[] = [
  faultRawNewline,
  faultRawCr,
  faultOversizeLine,
  faultMalformedJson,
  faultTruncated,
  faultConnectionDrop,
  faultRetryReplay,
  faultAfterDone,
  faultUnknownType,
  faultBadXml,
];
