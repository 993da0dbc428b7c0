import { AGENT_ENDPOINTS } from '../../agents/wire-formats';
import { isKnownEnvelopeType } from '../../envelope/vocabulary';
import type { DialectModule } from '../types';
import { createJsonEnvelopeDecoder } from './decoder';

/**
 * Positive evidence of a JSON envelope: the four base fields, and either a type of the agent
 * vocabulary (whatever the other fields hold: their types are the decoder's to check and
 * report) or all four of the types the specification gives them (an end-turn hook's own
 * type). An object that merely has members of these names is another stream's event.
 */
function isEnvelopeObject(object: Record<string, unknown>): boolean {
  if (!('type' in object && 'agent' in object && 'final' in object && 'delta' in object)) return false;
  const type = object['type'];
  if (typeof type !== 'string') return false;
  return (
    isKnownEnvelopeType(type) ||
    (typeof object['agent'] === 'string' && typeof object['final'] === 'boolean' && typeof object['delta'] === 'string')
  );
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
  evidence: AGENT_ENDPOINTS,
  chunked: true,
  serverGenerations: true,
  attributesAgents: true,
  blocksWithoutStart: true,
};
