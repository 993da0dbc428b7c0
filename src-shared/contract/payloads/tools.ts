import { WIRE_FORMATS } from '../../agents/wire-formats';
import type { Infer } from '../schema';
import { Count, SessionId } from './common';
import * as s from '../schema';

/** Frontend tools, and running a request again in other wire formats. */

/**
 * One answer, in the upstream wire's own field names (docs/protocols/upstream-protocol.md §8 #33).
 * A tool waiting for its approval (PendingTool.approvalId) is answered with `approved` instead,
 * and `content` is the reason given, if any.
 */
export const ToolResult = s.object({
  tool_use_id: s.string({ nonEmpty: true, max: 512 }),
  content: s.string({ max: 16 * 1024 * 1024 }),
  is_error: s.optional(s.boolean()),
  approved: s.optional(s.boolean()),
});
export type ToolResult = Infer<typeof ToolResult>;

export const SendToolResultsRequest = s.object({
  sessionId: SessionId,
  results: s.array(ToolResult, { max: 1000 }),
  /** Path (and query) on the run URL's origin; default: the run path with /agent/run → /agent/tool_results. */
  path: s.optional(s.string({ max: 4096, pattern: /^\/(?!\/)/ })),
  /** Extra top-level body fields such as agent_type (agent_uuid and tool_results are fixed). */
  extraBody: s.optional(s.record(s.json<unknown>(), { maxKeys: 100 })),
  /** Send although results for this pending set were already sent once and failed. */
  resend: s.optional(s.boolean()),
  /** Send a set of ids different from the pending set (to see the server's mismatch error). */
  allowMismatch: s.optional(s.boolean()),
});
export type SendToolResultsRequest = Infer<typeof SendToolResultsRequest>;

export const SendToolResultsResult = s.object({ leg: Count() });

/** Run a live session's request again once per format, to diff the runs. */
export const RunInFormatsRequest = s.object({
  sessionId: SessionId,
  formats: s.array(s.literal(...WIRE_FORMATS), { max: WIRE_FORMATS.length }),
});
export type RunInFormatsRequest = Infer<typeof RunInFormatsRequest>;
