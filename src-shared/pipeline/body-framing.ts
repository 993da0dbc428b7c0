import { createSseFramer } from '../sse/framer';
import type { FramerCallbacks, FramerOptions, FramerSummary, SseFramer } from '../sse/types';
import { createJsonArrayFramer } from './json-array-framer';

/**
 * How a leg's body is cut into events: SSE (`text/event-stream`, the usual), or one JSON array
 * streamed element by element (an API asked for a stream without SSE: Gemini without
 * `alt=sse`). The body's own first bytes say which: a body whose first character (after a
 * byte-order mark and whitespace) is `[` is a JSON array, since an SSE stream never starts
 * with one (a line `[…` is no SSE field, and a stream of nothing but ignored lines holds no
 * event). Everything that frames a leg's bytes — the session decoder, framing them again to
 * show one event, the block diff — decides with this same function.
 */
export type BodyFraming = 'sse' | 'json-array';

const BOM = [0xef, 0xbb, 0xbf] as const;
const OPEN_ARRAY = 0x5b;
/** Leading whitespace past which a body is taken for SSE without waiting for more. */
export const FRAMING_DECIDED_WITHIN = 64 * 1024;

const isSpace = (b: number): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** The decision as bytes arrive: a byte-order mark and whitespace say nothing yet. */
class FramingSniffer {
  private seen = 0;
  /** Bytes of a byte-order mark at the very start. */
  private bom = 0;

  /** Reads the next bytes; the framing once they decide it, undefined while they do not. */
  read(bytes: Uint8Array): BodyFraming | undefined {
    for (const b of bytes) {
      const inBom = this.seen === this.bom && this.bom < BOM.length && b === BOM[this.bom];
      this.seen++;
      if (inBom) this.bom++;
      else if (!isSpace(b)) return b === OPEN_ARRAY ? 'json-array' : 'sse';
    }
    return this.seen >= FRAMING_DECIDED_WITHIN ? 'sse' : undefined;
  }
}

/** The framing of a body whose first bytes are `head`; undefined when they are only a BOM and whitespace. */
export function bodyFramingOf(head: Uint8Array): BodyFraming | undefined {
  return new FramingSniffer().read(head);
}

export interface BodyFramer extends SseFramer {
  /** The framing chosen, once the body's first bytes decided it. */
  framing(): BodyFraming | undefined;
}

/**
 * A framer for a leg's body of either framing: it holds the first chunks until their bytes
 * decide (a BOM and whitespace decide nothing), then frames them and everything after with
 * the SSE framer or the JSON array framer. A body that ends undecided is SSE.
 */
export function createBodyFramer(callbacks: FramerCallbacks, options: FramerOptions = {}): BodyFramer {
  const sniffer = new FramingSniffer();
  let held: { chunk: Uint8Array; receivedAt: number }[] = [];
  let framer: SseFramer | undefined;
  let chosen: BodyFraming | undefined;

  const choose = (framing: BodyFraming): SseFramer => {
    chosen = framing;
    framer = framing === 'json-array' ? createJsonArrayFramer(callbacks) : createSseFramer(callbacks, options);
    for (const { chunk, receivedAt } of held) framer.push(chunk, receivedAt);
    held = [];
    return framer;
  };

  return {
    framing: () => chosen,
    push(chunk, receivedAt = 0) {
      if (framer) return framer.push(chunk, receivedAt);
      // Copied: the caller may reuse its chunk's buffer once push returns.
      held.push({ chunk: chunk.slice(), receivedAt });
      const decided = sniffer.read(chunk);
      if (decided) choose(decided);
    },
    end(): FramerSummary {
      return (framer ?? choose('sse')).end();
    },
  };
}
