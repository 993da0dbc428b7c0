import { ShapeReader } from '../../json/shapes';

/**
 * AG-UI's most frequent events, a text or reasoning message's content, in the compact JSON
 * the SDKs write (fields in declaration order, nothing null), read without JSON.parse
 * (src-shared/json/shapes.ts). JSON.parse builds an object of three strings for the one string
 * the decoder needs, and was the largest part of the dialect's decoding time. Anything else —
 * other key orders, whitespace, a timestamp — is declined and the event is parsed as usual.
 */
const CONTENT_SHAPES = [
  '{"type":"TEXT_MESSAGE_CONTENT","messageId":"{id}","delta":"{str}"}',
  '{"type":"REASONING_MESSAGE_CONTENT","messageId":"{id}","delta":"{str}"}',
];
const TYPES = ['TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT'] as const;

/** One reader per decoder: `read` overwrites the fields. */
export class CompactContent {
  private readonly shapes: ShapeReader;
  // Declared, not class fields (see ProviderEventContext): set by every successful read.
  declare type: (typeof TYPES)[number];
  declare messageId: string;
  declare delta: string;

  /** `enabled` false declines every event (DialectOptions.readShapes). */
  constructor(enabled = true) {
    this.shapes = new ShapeReader(CONTENT_SHAPES, enabled);
  }

  /** Whether `data` is such an event; when it is, its type, message id and delta are in the fields. */
  read(data: string): boolean {
    const shapes = this.shapes;
    if (!shapes.read(data)) return false;
    this.type = TYPES[shapes.shape] as (typeof TYPES)[number];
    // The reader hands out one string per message id: the decoder's lookups by id hash it once.
    this.messageId = shapes.string(0);
    this.delta = shapes.string(1);
    return true;
  }
}
