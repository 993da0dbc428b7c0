import type { SessionDiff } from '../../diff/types';
import type { Infer } from '../schema';
import { SessionId } from './common';
import * as s from '../schema';

/** Diff: two finished sessions, block by block. */

export const DiffRequest = s.object({
  left: SessionId,
  right: SessionId,
  /** Align blocks across agents (chosen automatically when a side cannot attribute sub-agents). */
  flattenAgents: s.optional(s.boolean()),
});
export type DiffRequest = Infer<typeof DiffRequest>;

/**
 * The block-level diff of two sessions (shape: src-shared/diff/types SessionDiff; checked as
 * plain data) and one text per side for a whole-transcript diff editor.
 */
export const DiffResult = s.object({
  diff: s.json<SessionDiff>(),
  transcript: s.object({ left: s.string(), right: s.string() }),
});
export type DiffResult = Infer<typeof DiffResult>;

export type { SessionDiff };
