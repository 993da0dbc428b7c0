/**
 * Floors for the decoder benchmarks: the least work any reader of the stream must do, timed
 * in the same process on the same chunks. A decoder's figure is floor time / decoder time
 * (1.0 = as fast as the floor).
 */
import { createParser } from 'eventsource-parser';
import { concatBytes } from '../src-shared/bytes/held-bytes';

const NEWLINE = 0x0a;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;

/**
 * Line splitting + UTF-8 decoding + `JSON.parse` of each `data:` line that holds a JSON
 * object (or, line-framed, of each `CODE:JSON` part and each NDJSON line): what reading a
 * JSON-lines event stream costs at the least. For XML items (lines that are not JSON) it is splitting and decoding
 * alone, the framing floor.
 */
export function linesFloor(chunks: readonly Uint8Array[]): number {
  const decoder = new TextDecoder();
  let parsed = 0;
  let pending: Uint8Array[] = [];
  const line = (bytes: Uint8Array): void => {
    const text = decoder.decode(bytes);
    if (text.startsWith('data: {')) {
      JSON.parse(text.slice(6));
      parsed++;
    } else if (text.charCodeAt(0) === OPEN_BRACE) {
      // NDJSON: the line is the JSON (Ollama's native API).
      JSON.parse(text);
      parsed++;
    } else if (text.charCodeAt(1) === COLON && text.charCodeAt(0) !== COLON) {
      // A line-framed part (the AI SDK's v4 data stream, `CODE:JSON`): its JSON.
      JSON.parse(text.slice(2));
      parsed++;
    }
  };
  for (const chunk of chunks) {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      if (pending.length === 0) line(chunk.subarray(start, nl));
      else {
        pending.push(chunk.subarray(start, nl));
        line(concatBytes(pending));
        pending = [];
      }
      start = nl + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) line(concatBytes(pending));
  return parsed;
}

/** eventsource-parser (the field's reference SSE parser) + `JSON.parse` of each JSON event. */
export function eventsourceParserFloor(chunks: readonly Uint8Array[]): number {
  const decoder = new TextDecoder();
  let parsed = 0;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data.startsWith('{')) {
        JSON.parse(event.data);
        parsed++;
      }
    },
  });
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return parsed;
}
