import { isJsonObject } from '../../json/values';
import type { Frame } from '../../sse/types';
import { assessEnvelopeBudget, frameDataBytes } from '../../envelope/budget';
import type { EnvelopeInit } from '../../envelope/types';
import { readEnvelopeFields } from './fields';
import { findLoneSurrogateEscapes } from './surrogates';

let fieldIssue = false;
/** One function for every read, not a closure per event: it only notes that an issue was found. */
const noteIssue = (): void => {
  fieldIssue = true;
};

/**
 * The envelope of a healthy event: its data parses to an object with the four base fields
 * of the right types, no unpaired surrogate escape, within the budget. Undefined for any
 * event the decoder has something to report about (the decoder then reads it in order, with
 * its findings). The fields are those the decoder reads, by JSON.parse here (its shape reader
 * gives the same: src-shared/pipeline/fast-paths.test.ts), and depend on the frame alone,
 * never on the events before it: what makes it safe to run on any thread, in any order (the
 * parallel decode of a large recording), with the same result as in order.
 */
export function readCleanEnvelope(frame: Frame, budget: number): EnvelopeInit | undefined {
  const data = frame.data;
  if (findLoneSurrogateEscapes(data).length > 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  fieldIssue = false;
  // The agent is always present in a clean event, so the default agent is never used.
  const fields = readEnvelopeFields(value, '', frame.seq, noteIssue);
  if (fieldIssue) return undefined;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter data cannot be over the budget.
  if (data.length * 3 > budget && assessEnvelopeBudget(fields, fields.delta, frameDataBytes(frame), budget))
    return undefined;
  return fields;
}
