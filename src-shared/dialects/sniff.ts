import { parseJsonObject } from '../json/values';

/** What dialect detection looks at: one frame's `event:` field and data, parsed at most once. */
export interface SniffedFrame {
  /** The SSE `event:` field ('' when the frame had none). */
  readonly event: string;
  readonly data: string;
  /** Index of the data's first non-whitespace character. */
  readonly start: number;
  /** The data as a JSON object, or undefined when it is none (parsed on first call). */
  json(): Record<string, unknown> | undefined;
}

const OPEN_BRACE = 0x7b;

function firstNonSpace(data: string): number {
  let i = 0;
  while (i < data.length && /\s/.test(data.charAt(i))) i++;
  return i;
}

export function sniffFrame(frame: { event: string; data: string }): SniffedFrame {
  const data = frame.data;
  const start = firstNonSpace(data);
  let parsed: Record<string, unknown> | undefined | null = null;
  return {
    event: frame.event,
    data,
    start,
    json() {
      if (parsed === null)
        parsed =
          data.charCodeAt(start) === OPEN_BRACE ? parseJsonObject(start === 0 ? data : data.slice(start)) : undefined;
      return parsed;
    },
  };
}
