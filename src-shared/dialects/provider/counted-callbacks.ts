import type { DialectCallbacks } from '../types';

/**
 * A decoder's callbacks with the envelopes it emits counted. A provider whose events are whole
 * chunks (Gemini's responses, Ollama's lines) shows a chunk that produced no envelope, nothing
 * any block takes, as the wire event it is: the count not moving over the chunk says so.
 */
export function countedCallbacks(outer: DialectCallbacks): { callbacks: DialectCallbacks; emitted: () => number } {
  let emitted = 0;
  return {
    callbacks: {
      ...outer,
      onEnvelope(envelope, payload) {
        emitted++;
        outer.onEnvelope(envelope, payload);
      },
    },
    emitted: () => emitted,
  };
}
