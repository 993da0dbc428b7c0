import type { StreamIds } from '../../envelope/unified';

/** What the parts of the decoder (message lanes, tool calls, state) need of the run they decode in. */
export interface RunView {
  /** The unified ids of an event of the current run, with the item's own ids added. */
  ids(extra?: StreamIds): StreamIds;
  /** Content arrived (text, reasoning, tool arguments): the run's time to first token starts here. */
  token(receivedAt: number): void;
}

/** The event's string field, or undefined when it is missing or not a string. */
export function optionalString(event: Record<string, unknown>, key: string): string | undefined {
  const value = event[key];
  return typeof value === 'string' ? value : undefined;
}
