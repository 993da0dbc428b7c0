import type { Segment } from '../inline/types';

/**
 * `open`: no final envelope yet (still streaming, or never closed: see block.unterminated).
 * `complete`: closed by its final envelope. `abandoned`: the server replayed the block from
 * its start without closing it (a retried API call, block.restarted); `replacedBy` names the replay.
 */
export const BLOCK_STATUSES = ['open', 'complete', 'abandoned'] as const;

export type BlockStatus = (typeof BLOCK_STATUSES)[number];

export interface Citation {
  citationType: string;
  citedText: string;
  /** Every other field the wire gave (document_index, url, …), numbers kept as numbers. */
  fields: Record<string, unknown>;
  envelope: number;
}

export interface ImageRef {
  src: string;
  mediaType: string;
  envelope: number;
}

export interface PendingTool {
  toolUseId: string;
  name: string;
  input: unknown;
  /**
   * Set when the run waits for the call's approval, not for its result (the AI SDK's
   * `tool-approval-request`): the id the approval answers.
   */
  approvalId?: string;
  /** Set when the call takes only answers of one form, as its dialect says it (a computer call's screenshot). */
  answerHint?: string;
}

/**
 * A reconstructed block: everything one agent produced for one (type) between its first
 * delta and its final marker. `kind` is the envelope type it was built from.
 */
export interface Block {
  id: number;
  agent: string;
  kind: string;
  status: BlockStatus;
  content: string;
  toolId?: string;
  name?: string;
  /** Shared and empty (NO_CITATIONS) until one attaches: most blocks have none. */
  citations: readonly Citation[];
  /** Shared and empty (NO_IMAGES) until one attaches. */
  images: readonly ImageRef[];
  /** JSON payload parsed once the block completed (meta_*, tool arguments, awaiting tools…). */
  parsed?: unknown;
  /** Set when `parsed` was expected but the payload did not parse. */
  parseError?: string;
  /** For tool calls: the block id of the result, and vice versa. */
  linkedBlock?: number;
  /** For awaiting_frontend_tools. */
  pendingTools?: PendingTool[];
  /**
   * For an awaiting_frontend_tools block: the model paused its turn (Anthropic's `pause_turn`),
   * which the client continues with no call to answer (its pendingTools may be empty).
   */
  pausedTurn?: boolean;
  /** For an abandoned block: the block that replays it. */
  replacedBy?: number;
  /** For a replay: the abandoned block it replaces. */
  replaces?: number;
  /**
   * Envelope sequence numbers this block was built from, in order (citations and
   * tool_result_image envelopes included in the block they attach to). Appended through
   * pushEnvelope (envelope-list.ts): a finished block's list may be rebuilt by its session store.
   */
  envelopes: readonly number[];
  /** Session leg of the block's first envelope; the byte span is in that leg's stream. */
  leg: number;
  /** Byte span in the leg's stream: min byteStart, max byteEnd of its envelopes of that leg. */
  byteStart: number;
  byteEnd: number;
  /** For text blocks: the protocol the model wrote inside its text, as segments (the inline stage). */
  segments?: Segment[];
  /**
   * Characters past the held-content cap (MAX_BLOCK_CHARS, block.content-capped): `content` is
   * the block's first characters only; the rest is in the stream's bytes (recording, spool file).
   */
  omittedChars?: number;
}

export interface AgentInfo {
  uuid: string;
  parent: string | null;
  model?: string;
  format?: string;
  userQuery?: string;
  /** Envelope seq of the meta_init that introduced the agent (none for agents seen without one). */
  metaInitEnvelope?: number;
  firstEnvelope: number;
}
