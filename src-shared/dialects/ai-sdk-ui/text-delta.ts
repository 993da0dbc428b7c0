import { ShapeReader } from '../../json/shapes';

/**
 * The UI message stream's most frequent chunk, a text or reasoning delta, in the compact JSON
 * the SDK writes, read without JSON.parse (src-shared/json/shapes.ts):
 * `{"type":"text-delta","id":"…","delta":"…"}` (or `reasoning-delta`). Anything else (other
 * key orders, whitespace, more fields such as providerMetadata) is declined and parsed as
 * usual.
 */
const DELTA_SHAPES = [
  '{"type":"text-delta","id":"{id}","delta":"{str}"}',
  '{"type":"reasoning-delta","id":"{id}","delta":"{str}"}',
];
const KINDS = ['text', 'reasoning'] as const;

/** One reader per decoder: `read` overwrites the fields. */
export class TextDeltaReader {
  private readonly shapes: ShapeReader;
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare kind: (typeof KINDS)[number];
  /** The part's id: the reader hands out one string per id, so comparing it with the last part's is one pointer check. */
  declare id: string;
  declare delta: string;

  /** `enabled` false declines every event (DialectOptions.readShapes). */
  constructor(enabled = true) {
    this.shapes = new ShapeReader(DELTA_SHAPES, enabled);
  }

  /** Whether `data` is such a delta; when it is, its kind, id and text are in the fields. */
  read(data: string): boolean {
    const shapes = this.shapes;
    if (!shapes.read(data)) return false;
    this.kind = KINDS[shapes.shape] as (typeof KINDS)[number];
    this.id = shapes.string(0);
    this.delta = shapes.string(1);
    return true;
  }
}
