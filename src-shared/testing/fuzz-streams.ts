/**
 * Streams of a dialect's grammar events (fuzz.ts, `FuzzDialect`), framed as its wire frames
 * them: mostly well, sometimes with other line endings or payloads split over data lines.
 */
import { concatBytes } from '../bytes/held-bytes';
import { jsonText } from '../json/tree';
import { encodeUtf8 } from '../text/utf8';
import { int, pick, text, type FuzzDialect, type Random } from './fuzz';

/** The event as its dialect frames it: the `event:` field and the sequence number, most of the time right. */
function framed(dialect: FuzzDialect, data: string, sequence: number, random: Random): { field: string; data: string } {
  const framing = dialect.framing;
  if (!framing) return { field: '', data };
  const object = data.startsWith('{') ? (JSON.parse(data) as Record<string, unknown>) : undefined;
  if (object && framing.sequenceNumbers)
    object['sequence_number'] = random() < 0.95 ? sequence : int(random, sequence + 2);
  const type = object?.['type'];
  const field =
    framing.eventField && typeof type === 'string' && random() < 0.97
      ? `event: ${random() < 0.97 ? type : text(random)}`
      : '';
  return { field, data: object ? jsonText(object) : data };
}

const FINAL_MARKERS = ['[DONE]', jsonText({ error: 'APIStatusError', message: 'Overloaded', traceback: 'Traceback…' })];

/**
 * A stream of grammar events, mostly well framed, sometimes with other line endings or split
 * data lines; for a dialect with a framing of its own (FuzzDialect.stream), half of the time a
 * stream in that framing; for a dialect whose API also streams one JSON array, half the time
 * that array (sometimes without its closing `]`).
 */
export function generateStream(dialect: FuzzDialect, random: Random): Uint8Array {
  if (dialect.stream && random() < 0.5) return encodeUtf8(dialect.stream(random));
  const eol = random() < 0.8 ? '\n' : pick(random, ['\r', '\r\n']);
  const events: string[] = [];
  const count = 1 + int(random, 40);
  if (dialect.framing?.jsonArray && random() < 0.5) {
    for (let n = 0; n < count; n++) events.push(dialect.event(random));
    return encodeUtf8(`[${events.join(`${eol},`)}${random() < 0.9 ? `${eol}]` : ''}`);
  }
  if (dialect.opening !== undefined && random() < 0.95) events.push(`data: ${dialect.opening}${eol}${eol}`);
  for (let n = 0; n < count; n++) {
    const { field, data } = framed(dialect, dialect.event(random), n, random);
    // A payload holding line breaks is sent as several data: lines, as an EventSource joins them.
    const lines = data.split(/\r\n|\r|\n/).map((line) => `data: ${line}${eol}`);
    events.push(`${field === '' ? '' : `${field.replace(/[\r\n]/g, ' ')}${eol}`}${lines.join('')}${eol}`);
  }
  if (!dialect.framing && random() < 0.7) events.push(`data: ${pick(random, FINAL_MARKERS)}${eol}${eol}`);
  return encodeUtf8(events.join(''));
}

/** Generated streams one after the other, up to at least `size` bytes (memory checks). */
export function generateStreams(dialect: FuzzDialect, random: Random, size: number): Uint8Array {
  const parts: Uint8Array[] = [];
  for (let total = 0; total < size;) {
    const part = generateStream(dialect, random);
    parts.push(part);
    total += part.length;
  }
  return concatBytes(parts);
}
