import { readCleanEnvelope } from '../dialects/json-envelope/clean-read';
import { NO_EXTRAS, type EnvelopeInit } from '../envelope/types';
import { createSseFramer } from '../sse/framer';
import type { Frame } from '../sse/types';

/** Where a dialect takes the envelopes of events read ahead (DialectOptions.prepared). */
export interface PreparedEnvelopes {
  /** The envelope read ahead for exactly this event (same bytes, same data), else undefined. */
  take(frame: Frame): EnvelopeInit | undefined;
}

/**
 * The healthy JSON envelopes of one span of a leg's bytes, as columns: typed arrays and flat
 * lists cross a thread as a few buffers and strings, where one object per event would be
 * cloned field by field and cost the reading thread as much as parsing the JSON again.
 */
export interface PreparedSpan {
  count: number;
  /** Each event's bytes in the leg, and the length of its data: what identifies it to the reading thread. */
  starts: Float64Array<ArrayBuffer>;
  ends: Float64Array<ArrayBuffer>;
  lengths: Uint32Array<ArrayBuffer>;
  finals: Uint8Array<ArrayBuffer>;
  /** Indexes into `names`: the span's distinct types and agents, each string sent once. */
  types: Uint16Array<ArrayBuffer>;
  agents: Uint16Array<ArrayBuffer>;
  names: string[];
  deltas: string[];
  /** 0 for an envelope without extras (the shared NO_EXTRAS object on the reading side). */
  extras: (Record<string, unknown> | 0)[];
}

/** More distinct names than the columns index: the span stops there (the rest is read in order). */
const MAX_NAMES = 0xffff;
const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Frames `bytes` (the leg's bytes from `start` on, cut anywhere) and reads the healthy JSON
 * envelopes in them. What is read depends on each event's bytes alone (readCleanEnvelope),
 * and the reading thread takes an envelope only for an event with the same bytes and data:
 * an event cut by the span's start or end, or framed differently here, is never taken, and
 * is read in order as without a span.
 */
export function readSpan(bytes: Uint8Array, start: number, budget: number): PreparedSpan {
  const starts: number[] = [];
  const ends: number[] = [];
  const lengths: number[] = [];
  const finals: number[] = [];
  const types: number[] = [];
  const agents: number[] = [];
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  const deltas: string[] = [];
  const extras: (Record<string, unknown> | 0)[] = [];
  const nameId = (name: string): number => {
    let id = nameIds.get(name);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      nameIds.set(name, id);
    }
    return id;
  };
  // A framer strips a byte order mark at its start, where the leg's own framer (not at the
  // leg's start) reads it as part of a line: such a span's first event is left out.
  const skipFirst = start > 0 && UTF8_BOM.every((byte, i) => bytes[i] === byte);
  let full = false;
  const framer = createSseFramer({
    onFrame(frame) {
      if (full || (skipFirst && frame.byteStart === 0)) return;
      const fields = readCleanEnvelope(frame, budget);
      if (!fields) return;
      if (names.length >= MAX_NAMES - 2) {
        full = true;
        return;
      }
      starts.push(start + frame.byteStart);
      ends.push(start + frame.byteEnd);
      lengths.push(frame.data.length);
      finals.push(fields.final ? 1 : 0);
      types.push(nameId(fields.type));
      agents.push(nameId(fields.agent));
      deltas.push(fields.delta);
      extras.push(fields.extras === NO_EXTRAS ? 0 : fields.extras);
    },
    onDiagnostic: () => undefined,
  });
  // Never ended: an event the span's end cuts is not dispatched, and is read in order instead.
  framer.push(bytes);
  return {
    count: starts.length,
    starts: Float64Array.from(starts),
    ends: Float64Array.from(ends),
    lengths: Uint32Array.from(lengths),
    finals: Uint8Array.from(finals),
    types: Uint16Array.from(types),
    agents: Uint16Array.from(agents),
    names,
    deltas,
    extras,
  };
}

/** Prepared spans of one leg in byte order, handed out to the leg's dialect event by event. */
export interface PreparedCursor extends PreparedEnvelopes {
  add(span: PreparedSpan): void;
  /** A new leg: its byte offsets start again at 0. */
  reset(): void;
}

export function createPreparedCursor(): PreparedCursor {
  const queue: PreparedSpan[] = [];
  let span: PreparedSpan | undefined;
  let i = 0;
  return {
    add(next) {
      if (next.count === 0) return;
      if (span) queue.push(next);
      else span = next;
    },
    reset() {
      queue.length = 0;
      span = undefined;
      i = 0;
    },
    take(frame) {
      // Events come in byte order: skip what was read ahead for events before this one.
      while (span) {
        while (i < span.count && (span.starts[i] as number) < frame.byteStart) i++;
        if (i < span.count) break;
        span = queue.shift();
        i = 0;
      }
      if (
        !span ||
        span.starts[i] !== frame.byteStart ||
        span.ends[i] !== frame.byteEnd ||
        span.lengths[i] !== frame.data.length
      )
        return undefined;
      const extras = span.extras[i] as Record<string, unknown> | 0;
      // The fields in readEnvelopeFields' order: one object shape for envelopes however they were read.
      const fields: EnvelopeInit = {
        frame: frame.seq,
        agent: span.names[span.agents[i] as number] as string,
        type: span.names[span.types[i] as number] as string,
        final: span.finals[i] === 1,
        delta: span.deltas[i] as string,
        extras: extras === 0 ? NO_EXTRAS : extras,
      };
      i++;
      return fields;
    },
  };
}
