/** Hand-made streams for the session decoder's tests: envelopes of one agent, framed as SSE. */
import { encodeUtf8 } from '../text/utf8';
import { decodeBytes, type SessionDecoderOptions } from './session-decoder';
import type { DecodeResult } from './types';

export const AGENT = '11111111-1111-4111-8111-111111111111';

export const LINE_ENDINGS = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['CRLF', '\r\n'],
] as const;

/** A hand-made stream: one `data:` line per event, each followed by a blank line. */
export function sse(events: readonly string[], eol = '\n'): Uint8Array {
  return encodeUtf8(events.map((data) => `data: ${data}${eol}${eol}`).join(''));
}

export function envelope(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'text', agent: AGENT, final: false, delta: 'hi', ...fields });
}

export const META_INIT = envelope({
  type: 'meta_init',
  final: true,
  delta: JSON.stringify({ format: 'json', agent_uuid: AGENT }),
});
export const ERROR_FRAME = JSON.stringify({
  error: 'APIStatusError',
  message: 'Overloaded',
  traceback: 'Traceback (most recent call last):\n  ...',
});

export function decode(events: readonly string[], eol = '\n', options?: SessionDecoderOptions): DecodeResult {
  return decodeBytes(sse(events, eol), options);
}

/** The rule ids of a result's findings that start with `prefix`, in order. */
export function rules(result: DecodeResult, prefix = 'stream.'): string[] {
  return result.diagnostics.map((d) => d.rule).filter((rule) => rule.startsWith(prefix));
}
