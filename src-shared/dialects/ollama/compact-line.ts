import { ShapeReader } from '../../json/shapes';
import { CONTENT, THINKING, type Channel } from './vocabulary';

/**
 * The lines that are nearly all of an Ollama stream, one token of text or thinking, in the
 * compact JSON its server writes (Go's encoding/json: the struct's field order, no
 * whitespace), read without JSON.parse (src-shared/json/shapes.ts): `/api/chat`'s
 * `{"model":"…","created_at":"…","message":{"role":"assistant","content":"…"},"done":false}`
 * (or `"content":"","thinking":"…"`) and `/api/generate`'s `"response":"…"` (or
 * `"response":"","thinking":"…"`). Anything else (another order, images, tool calls, the
 * done line) is declined and parsed as usual.
 */
const LINE_SHAPES = [
  '{"model":"{id}","created_at":"{skip}","message":{"role":"assistant","content":"{str}"},"done":false}',
  '{"model":"{id}","created_at":"{skip}","message":{"role":"assistant","content":"","thinking":"{str}"},"done":false}',
  '{"model":"{id}","created_at":"{skip}","response":"{str}","done":false}',
  '{"model":"{id}","created_at":"{skip}","response":"","thinking":"{str}","done":false}',
];
const CHANNELS = [CONTENT, THINKING, CONTENT, THINKING] as const;

/** One reader per decoder: `read` overwrites the fields. */
export class CompactLineReader {
  private readonly shapes: ShapeReader;
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  /** The model the line names: one string per model, so comparing it with the response's is one pointer check. */
  declare model: string;
  declare channel: Channel;
  declare text: string;

  /** `enabled` false declines every line (DialectOptions.readShapes). */
  constructor(enabled = true) {
    this.shapes = new ShapeReader(LINE_SHAPES, enabled);
  }

  /** Whether `data` is such a line; when it is, its model, channel and text are in the fields. */
  read(data: string): boolean {
    const shapes = this.shapes;
    if (!shapes.read(data)) return false;
    this.model = shapes.string(0);
    this.channel = CHANNELS[shapes.shape] as Channel;
    this.text = shapes.string(2);
    return true;
  }
}
