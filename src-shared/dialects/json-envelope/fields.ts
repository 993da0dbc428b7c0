import { describeValue } from '../../json/values';
import { stringifyJson } from '../../json/tree';
import { NO_EXTRAS, type EnvelopeInit } from '../../envelope/types';

/** A base field that was absent or had the wrong JSON type, and what was assumed instead. */
export interface FieldIssue {
  rule: 'envelope.missing-field' | 'envelope.field-type';
  message: string;
}

function isScalar(value: unknown): value is number | boolean {
  return typeof value === 'number' || typeof value === 'boolean';
}

function missingField(field: string, assumed: string): FieldIssue {
  return { rule: 'envelope.missing-field', message: `Envelope has no "${field}" field; assumed ${assumed}.` };
}

function wrongFieldType(field: string, expected: string, value: unknown, assumed: string): FieldIssue {
  return {
    rule: 'envelope.field-type',
    message: `Envelope field "${field}" must be a ${expected} but is ${describeValue(value)}; assumed ${assumed}.`,
  };
}

function agentDefaultText(defaultAgent: string): string {
  return defaultAgent ? `the session's agent ${JSON.stringify(defaultAgent)}` : 'agent ""';
}

/**
 * Read the four base fields of a parsed envelope object into the envelope of event `frame`
 * (every other key goes to its extras, in wire order, values untouched). A field that is
 * missing or of the wrong type never stops decoding: the closest sensible value is assumed
 * and `onIssue` says which, so the timeline still shows the envelope and the user sees why
 * it looks odd.
 */
export function readEnvelopeFields(
  object: Record<string, unknown>,
  defaultAgent: string,
  frame: number,
  onIssue: (issue: FieldIssue) => void,
): EnvelopeInit {
  // The type check first: a well-formed envelope asks no `in` (a key lookup of its own).
  let type = '';
  const rawType = object['type'];
  if (typeof rawType === 'string') type = rawType;
  else if (!('type' in object)) onIssue(missingField('type', 'type ""'));
  else {
    type = isScalar(rawType) ? String(rawType) : '';
    onIssue(wrongFieldType('type', 'string', rawType, `type ${JSON.stringify(type)}`));
  }

  let agent = defaultAgent;
  const rawAgent = object['agent'];
  if (typeof rawAgent === 'string') agent = rawAgent;
  else if (!('agent' in object)) onIssue(missingField('agent', agentDefaultText(defaultAgent)));
  else {
    if (isScalar(rawAgent)) agent = String(rawAgent);
    onIssue(
      wrongFieldType(
        'agent',
        'string',
        rawAgent,
        isScalar(rawAgent) ? `agent ${JSON.stringify(agent)}` : agentDefaultText(defaultAgent),
      ),
    );
  }

  let final = false;
  const rawFinal = object['final'];
  if (typeof rawFinal === 'boolean') final = rawFinal;
  else if (!('final' in object))
    onIssue(missingField('final', 'false (the block stays open until an envelope with final:true)'));
  else {
    final = rawFinal === 'true' || rawFinal === 1;
    onIssue(wrongFieldType('final', 'boolean', rawFinal, String(final)));
  }

  let delta = '';
  const rawDelta = object['delta'];
  if (typeof rawDelta === 'string') delta = rawDelta;
  else if (!('delta' in object)) onIssue(missingField('delta', 'an empty delta'));
  else {
    // Keep a structured delta as its JSON text so its content is not lost.
    delta = rawDelta === null ? '' : (stringifyJson(rawDelta) ?? '');
    onIssue(
      wrongFieldType('delta', 'string', rawDelta, rawDelta === null ? 'an empty delta' : 'its JSON text as the delta'),
    );
  }

  let extras: Record<string, unknown> = NO_EXTRAS;
  // for…in lists a parsed object's own keys in wire order, without an array of them.
  for (const key in object) {
    // Compared one by one: keys of parsed objects are internalised, so each is a pointer check.
    if (key === 'type' || key === 'agent' || key === 'final' || key === 'delta') continue;
    if (extras === NO_EXTRAS) extras = {};
    // A wire key "__proto__" must stay a plain property, not replace the prototype.
    if (key === '__proto__')
      Object.defineProperty(extras, key, { value: object[key], enumerable: true, writable: true, configurable: true });
    else extras[key] = object[key];
  }
  return { frame, agent, type, final, delta, extras };
}
