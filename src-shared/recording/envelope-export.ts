import { isJsonObject } from '../json/values';

/**
 * Reading back this inspector's envelope export ("Envelopes (NDJSON)"): one envelope per
 * line as it was decoded — `seq`, `leg`, `frame`, `agent`, `type`, `final`, `delta`,
 * `extras`, `dialect`, its byte range and receive time, and `control` for the envelopes that
 * mark a terminator, an error frame, an XML open tag, a provider event or an undecodable
 * event. Sent to the decoder as they are, these lines would be envelopes with strange
 * fields: `extras` nested (a tool call's id lost), `[DONE]` an unknown type, every leg one
 * stream. Read back, each line is what the wire carried for it instead, in its leg.
 *
 * What the export cannot carry is the wire itself: its framing, its sizes, XML items and
 * provider events. An envelope of an XML or provider stream is sent as a JSON envelope, and
 * the markers only those formats have (an XML open tag, a provider lifecycle event) are left
 * out. FILE_FORMATS says so where the export is offered.
 */

/** An exported line: its leg, and the SSE data to send for it (null: a marker of another wire format, left out). */
export interface ExportedEnvelope {
  leg: number;
  data: string | null;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The line's leg and wire data when it is an exported envelope; null for any other object. */
export function readExportedEnvelope(value: Record<string, unknown>): ExportedEnvelope | null {
  const { leg, type, agent, final, delta, extras, control } = value;
  if (
    !isCount(value['seq']) ||
    !isCount(leg) ||
    typeof value['dialect'] !== 'string' ||
    typeof value['byteStart'] !== 'number' ||
    typeof type !== 'string' ||
    typeof agent !== 'string' ||
    typeof final !== 'boolean' ||
    typeof delta !== 'string' ||
    !isJsonObject(extras)
  )
    return null;
  switch (control) {
    case 'done':
      return { leg, data: '[DONE]' };
    case 'undecoded':
      // Its delta is the event's data, verbatim.
      return { leg, data: delta };
    case 'error-frame': {
      const { error, traceback, ...rest } = extras;
      return {
        leg,
        data: JSON.stringify({ error, message: delta, ...(traceback !== undefined ? { traceback } : {}), ...rest }),
      };
    }
    case 'block-open':
    case 'provider-event':
      return { leg, data: null };
    default:
      // The upstream agent's field order: type, agent, final, delta, then the extras.
      return { leg, data: JSON.stringify({ type, agent, final, delta, ...extras }) };
  }
}
