/**
 * The wire formats an agent server built like upstream streams in, chosen with `?format=` or
 * a JSON body's `format` (docs/protocols/upstream-protocol.md §9): JSON envelopes, legacy XML
 * and raw Anthropic events. The demo agent, "run in formats" and its contract read this list.
 */
export const WIRE_FORMATS = ['json', 'xml', 'raw'] as const;

export type WireFormat = (typeof WIRE_FORMATS)[number];
