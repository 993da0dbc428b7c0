import type { DiagnosticInit } from '../diagnostics/types';
import { previewBytes, previewText } from '../text/preview';
import type { Frame } from './types';

/*
 * What the SSE framer's findings about lines that are no SSE field and about a stream that
 * ends inside an event say (docs/diagnostics.md, "SSE framing"). The framer decides when a
 * finding is due; these only word and locate it. None is on the hot path: a healthy stream
 * raises none of them.
 */

/** A line whose name could be a field's, after no payload: `sse.unknown-field`. */
export function unknownFieldFinding(
  bytes: Uint8Array,
  start: number,
  nameEnd: number,
  end: number,
  lineStart: number,
): DiagnosticInit {
  return {
    rule: 'sse.unknown-field',
    message: `Unknown field ${previewBytes(bytes, start, nameEnd, 40)} was ignored.`,
    at: { byteStart: lineStart, byteEnd: lineStart - start + end },
  };
}

/**
 * A line that is no SSE field, probably payload text lost to a raw line break:
 * `sse.ignored-line`. `follows` says what the line before it was, when that explains it.
 */
export function ignoredLineFinding(
  bytes: Uint8Array,
  start: number,
  nameEnd: number,
  end: number,
  lineStart: number,
  follows: 'data' | 'ignored' | undefined,
): DiagnosticInit {
  const why =
    nameEnd === end
      ? 'it has no colon'
      : follows !== undefined
        ? 'it continues the line above'
        : 'the text before its colon is not a field name';
  const context =
    follows === 'data'
      ? ' It directly follows a data: line, so a raw line break inside that payload probably cut it off.'
      : follows === 'ignored'
        ? ' It continues the ignored text above.'
        : '';
  return {
    rule: 'sse.ignored-line',
    message: `Line is not an SSE field (${why}) and was ignored; ${end - start} bytes lost: ${previewBytes(bytes, start, end)}.${context}`,
    at: { byteStart: lineStart, byteEnd: lineStart - start + end },
  };
}

/**
 * The event dispatched just before a line that is no SSE field was probably cut by a blank
 * line inside its payload: `sse.early-dispatch`. `blankLines` counts the blank lines after
 * the one that dispatched it.
 */
export function earlyDispatchFinding(
  frame: Frame,
  blankLines: number,
  bytes: Uint8Array,
  start: number,
  end: number,
  lineStart: number,
): DiagnosticInit {
  const how =
    blankLines === 0
      ? 'the blank line that dispatched it is directly followed by a line that is not an SSE field'
      : `it was dispatched with empty data and, after ${blankLines + 1} blank lines, a line that is not an SSE field follows`;
  return {
    rule: 'sse.early-dispatch',
    message: `Event ${frame.seq} was probably cut by a blank line inside its payload: ${how} (${previewBytes(bytes, start, end, 40)} at byte ${lineStart}). Dispatched data: ${previewText(frame.data, 40)}.`,
    at: { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd },
  };
}

/** What the event the stream ended inside had so far, all lost: `sse.unterminated-event`. */
export function unterminatedEventFinding(
  pending: { dataLines: number; data: string; eventType: string; tail: Uint8Array | undefined },
  byteStart: number,
  byteEnd: number,
): DiagnosticInit {
  const { dataLines, data, eventType, tail } = pending;
  const lost: string[] = [];
  if (dataLines > 0) lost.push(`${dataLines} data line${dataLines === 1 ? '' : 's'} (${previewText(data)})`);
  if (eventType !== '') lost.push(`event type ${JSON.stringify(eventType)}`);
  if (tail) lost.push(`an unfinished last line with no line ending (${previewBytes(tail, 0, tail.length)})`);
  if (lost.length === 0) lost.push('its fields');
  return {
    rule: 'sse.unterminated-event',
    message: `The stream ended before the blank line that would dispatch the last event; lost: ${lost.join(', ')}.`,
    at: { byteStart, byteEnd },
  };
}

/** The last event, complete but never ended by a blank line, dispatched all the same: `sse.unterminated-last-event`. */
export function unterminatedLastEventFinding(
  data: string,
  unterminatedLine: boolean,
  at: { frame: number; byteStart: number; byteEnd: number },
): DiagnosticInit {
  const missing = unterminatedLine
    ? 'its last line has no line ending, and no blank line follows'
    : 'no blank line follows it';
  return {
    rule: 'sse.unterminated-last-event',
    message: `The stream ended inside its last event: ${missing}. An EventSource drops such an event; its data is complete, so it is decoded as SDKs read it: ${previewText(data, 60)}.`,
    at,
  };
}

/**
 * The stream ends with events of `id` and `retry` fields alone, after its last dispatched
 * event: nothing to show, yet what a reconnecting client sends (`Last-Event-ID`) or waits
 * (`retry`) is theirs. `sse.fields-without-event`.
 */
export function fieldsWithoutEventFinding(
  lastEventId: string,
  retry: number | null,
  byteStart: number,
  byteEnd: number,
): DiagnosticInit {
  const sets = [
    ...(lastEventId !== '' ? [`the last event ID ${previewText(lastEventId, 80)}`] : []),
    ...(retry !== null ? [`a reconnection time of ${retry} ms`] : []),
  ];
  return {
    rule: 'sse.fields-without-event',
    message:
      sets.length > 0
        ? `The stream ends with fields that dispatch no event, leaving ${sets.join(' and ')}: an EventSource keeps them for its next connection${lastEventId !== '' ? ', which it opens with that Last-Event-ID' : ''}; there is no event to show for them.`
        : 'The stream ends with fields that dispatch no event and set nothing a client keeps (an event: field with no type, an empty id); there is no event to show for them.',
    at: { byteStart, byteEnd },
  };
}
