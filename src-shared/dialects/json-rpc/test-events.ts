import { decodeBytes } from '../../pipeline/session-decoder';
import type { DecodeResult } from '../../pipeline/types';
import { encodeUtf8 } from '../../text/utf8';

/** One JSON-RPC 2.0 message as MCP's Streamable HTTP sends it: `event: message`, an optional `id:`, the data. */
export function rpcEvent(message: Record<string, unknown>, eventId?: string): string {
  return `event: message\n${eventId === undefined ? '' : `id: ${eventId}\n`}data: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`;
}

/** A data-only event holding exactly `data` (a near miss, a batch, text that is no JSON). */
export const rawEvent = (data: string): string => `data: ${data}\n\n`;

export function decodeEvents(events: readonly string[]): DecodeResult {
  return decodeBytes(encodeUtf8(events.join('')));
}
