import type { Candidate } from './candidate';

/** The response being decoded: one per `responseId` (a capture may hold several, one after another). */
export interface Response {
  id: string;
  model: string;
  /**
   * The last chunk's `usageMetadata` (the running totals): the object, or its JSON text when
   * the chunk was read without parsing it (RecentTextChunk), parsed when the summary needs it.
   */
  usage: Record<string, unknown> | string | undefined;
  candidates: Map<number, Candidate>;
  /** Candidates seen that have not finished yet. */
  unfinished: number;
  /** Finished (every candidate), blocked or failed: the stream may end here. */
  ended: boolean;
  /** The first reason it failed (a dropped call, a blocked prompt), for the stream's end status. */
  failure: string | undefined;
  /** The first reason a candidate's output was cut short (MAX_TOKENS, SAFETY…), for the stream's end status. */
  cutShort: string | undefined;
  /** The last finishReason, which names the stream's terminal event. */
  reason: string;
  startedAt: number;
}

/** The response's last usage as an object (text kept by RecentTextChunk is parsed now: it is known to be JSON). */
export function usageOf(current: Response): Record<string, unknown> | undefined {
  if (typeof current.usage === 'string') current.usage = JSON.parse(current.usage) as Record<string, unknown>;
  return current.usage;
}

/**
 * Whether a chunk with this `responseId` belongs to the current response. While it is open,
 * only another id starts a new one (a chunk may lack the id). Once it ended, a chunk without
 * an id, or with its id, is more of it (content after its finish: gemini.after-finish): the
 * API's streams without ids send finishReason STOP on every chunk (Google's SDK test data,
 * external/generative-ai-js), and the SDKs join every chunk of the body into one answer. Only
 * another id begins the next response of a capture.
 */
export function continues(current: Response, id: string): boolean {
  if (!current.ended) return id === '' || current.id === '' || id === current.id;
  return id === '' || id === current.id;
}
