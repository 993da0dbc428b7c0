/**
 * Hand-made event data for the JSON envelope decoder's tests, one frame per string. Here rather than
 * beside the decoder because it runs the dialect through runDialectOnItems, and src-shared imports
 * nothing from src-main.
 */
import { type DialectOptions } from '../../src-shared/dialects/types';
import { createJsonEnvelopeDecoder } from '../../src-shared/dialects/json-envelope/decoder';
import { runDialectOnItems, type DialectRun } from './dialects';

export const AGENT = '11111111-1111-4111-8111-111111111111';

/** Decode hand-made event data, one frame per string. */
export const decodeData = (data: readonly string[], options?: DialectOptions): DialectRun =>
  runDialectOnItems(createJsonEnvelopeDecoder, data, options);

export function envelopeData(fields: Record<string, unknown>): string {
  return JSON.stringify({ type: 'text', agent: AGENT, final: false, delta: '', ...fields });
}
