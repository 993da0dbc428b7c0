import type { DialectModule } from '../types';
import { createJsonEnvelopeDecoder } from './decoder';

/** A JSON envelope has the four base fields; their types are the decoder's to check. */
function isEnvelopeObject(object: Record<string, unknown>): boolean {
  return 'type' in object && 'agent' in object && 'final' in object && 'delta' in object;
}

/** The JSON envelope stream: one `{type, agent, final, delta, …}` object per event. */
export const jsonEnvelopeDialect: DialectModule<'json'> = {
  id: 'json',
  label: 'JSON envelopes',
  detect: (frame) => {
    const object = frame.json();
    return object !== undefined && isEnvelopeObject(object);
  },
  create: createJsonEnvelopeDecoder,
  syntax: 'json',
  terminator: 'done-frame',
  chunked: true,
  attributesAgents: true,
  blocksWithoutStart: true,
};
