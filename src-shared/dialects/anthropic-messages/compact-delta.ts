import { ShapeReader } from '../../json/shapes';

/**
 * The Anthropic stream's most frequent event, a text or thinking delta, in the compact JSON
 * the API writes (src-shared/json/shapes.ts reads it without JSON.parse). JSON.parse of such
 * an event builds two objects for one string, and was a third of the dialect's whole decoding
 * time. Anything else — other key orders, whitespace, other delta types — is declined, and the
 * dialect parses the event as usual.
 */
const TEXT_DELTA_SHAPES = [
  '{"type":"content_block_delta","index":{int},"delta":{"type":"text_delta","text":"{str}"}}',
  '{"type":"content_block_delta","index":{int},"delta":{"type":"thinking_delta","thinking":"{str}"}}',
];
const THINKING_SHAPE = 1;

/** One reader per decoder: `read` overwrites the fields, so nothing is allocated per event but the text. */
export class CompactTextDelta {
  private readonly shapes: ShapeReader;
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare index: number;
  declare thinking: boolean;
  declare text: string;

  /** `enabled` false declines every event (DialectOptions.readShapes). */
  constructor(enabled = true) {
    this.shapes = new ShapeReader(TEXT_DELTA_SHAPES, enabled);
  }

  /** Whether `data` is such a delta; when it is, its index, kind and text are in the fields. */
  read(data: string): boolean {
    const shapes = this.shapes;
    if (!shapes.read(data)) return false;
    this.index = shapes.integer(0);
    this.thinking = shapes.shape === THINKING_SHAPE;
    this.text = shapes.string(1);
    return true;
  }
}
