import type { SegmentSink } from './types';

/**
 * The segment ids and the text segments of one block, shared by the parsers of every mode
 * (docs/inline.md): text between markers is a text segment, except white space, which waits
 * until something else shows the run is one (white space between segments is no segment).
 */
export interface TextRuns {
  /** Start a segment with the next id (the caller closed the text run first). */
  startSegment: (type: string, metadata: Record<string, unknown>, start: number) => string;
  /** Text read outside any segment, at offset `start`. */
  text: (content: string, start: number) => void;
  /** Something that is not text starts at `end`: the open text segment ends there. */
  closeText: (end: number) => void;
  /** White space read before a segment belongs to no segment. */
  dropPendingSpace: () => void;
  /** Whether a text segment is open (more text goes straight to it). */
  readonly textOpen: boolean;
  /** How many segments the block has started (text ones included). */
  readonly started: number;
  /** The last character of text read outside segments ('' before any). */
  readonly lastChar: string;
  /**
   * What was read outside segments since the last one (the open text segment, or white space
   * waiting) turns out to be a segment of `type` that a marker from `markerStart` to `end`
   * closed: the open text segment becomes one, else one starts with the waiting white space
   * as content (an empty one at the marker when nothing waits).
   */
  claim: (type: string, markerStart: number, end: number) => void;
}

/** Id of the n-th segment (from 1) a parser opens in a block. */
export function segmentId(n: number): string {
  return `seg_${n}`;
}

/** White space as the protocols write it: space, tab, LF, CR. */
export const isSpace = (c: string): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/** Whether `text` is only white space (space, tab, LF, CR), or empty. */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isSpace(text.charAt(i))) return false;
  return true;
}

/** A piece of the model's text for a finding's message: JSON-quoted, shortened. */
export function quote(text: string, max = 60): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** `onTextOpen`: a text segment opens at `from` with `content` (the turn checks of the XML protocol). */
export function createTextRuns(
  sink: SegmentSink,
  onTextOpen: (from: number, content: string) => void = () => undefined,
): TextRuns {
  let ids = 0;
  let textOpen = false;
  let pendingSpace = '';
  let pendingSpaceStart = 0;
  let lastChar = '';

  function startSegment(type: string, metadata: Record<string, unknown>, start: number): string {
    const id = segmentId(++ids);
    sink.start(id, type, metadata, start);
    return id;
  }

  return {
    startSegment,
    text(content, start) {
      if (content === '') return;
      lastChar = content.charAt(content.length - 1);
      if (!textOpen) {
        if (isBlank(content)) {
          if (pendingSpace === '') pendingSpaceStart = start;
          pendingSpace += content;
          return;
        }
        const from = pendingSpace === '' ? start : pendingSpaceStart;
        textOpen = true;
        startSegment('text', {}, from);
        onTextOpen(from, content);
        if (pendingSpace !== '') sink.content(pendingSpace);
        pendingSpace = '';
      }
      sink.content(content);
    },
    closeText(end) {
      if (!textOpen) return;
      textOpen = false;
      sink.end(true, end);
    },
    dropPendingSpace() {
      pendingSpace = '';
    },
    claim(type, markerStart, end) {
      if (textOpen) sink.retype(type);
      else {
        startSegment(type, {}, pendingSpace === '' ? markerStart : pendingSpaceStart);
        if (pendingSpace !== '') sink.content(pendingSpace);
        pendingSpace = '';
      }
      textOpen = false;
      sink.end(true, end);
    },
    get textOpen() {
      return textOpen;
    },
    get started() {
      return ids;
    },
    get lastChar() {
      return lastChar;
    },
  };
}
