import { legHeadLine, wireFields, type ExportedWire } from '../../../src-shared/recording/envelope-export';
import { decodeAsOf } from '../../../src-shared/recording/format';
import { redactRequest, redactResponse } from '../../../src-shared/recording/redact';
import type { Envelope } from '../../../src-shared/envelope/types';
import type { ExportCount } from './export-count';
import { legBody, legOutcome, legWasDecoded } from './leg-export';
import type { LegState } from './store/leg-state';
import type { SessionStore } from './store/session-store';
import { toEnvelopeDetail } from './store/session-summary';

/**
 * The envelope export ("Envelopes (NDJSON)", src-shared/recording/envelope-export.ts): each
 * leg's head line, then its envelopes one per line, each event's first line with the event's
 * bytes. Secrets are redacted from the heads as in a recording.
 */
export function* envelopeLines(session: SessionStore, count: ExportCount): Generator<string> {
  for (const [index, leg] of session.legs.entries()) {
    const first = leg.firstEnvelope;
    const end = session.legs[index + 1]?.firstEnvelope ?? session.envelopeCount;
    yield headLine(leg, first === end, session.formatChoice);
    const wireOf = wireCursor(leg, end - 1);
    for (let seq = first; seq < end; seq++) {
      const envelope = session.envelope(seq);
      count.envelopes = seq + 1;
      if (envelope) yield `${JSON.stringify({ ...toEnvelopeDetail(envelope), ...wireOf(envelope) })}\n`;
    }
  }
}

/** A leg's head line; a leg without envelopes has its body on it, which no envelope line carries. */
function headLine(leg: LegState, noEnvelopes: boolean, choice: string): string {
  const head = {
    leg: leg.index,
    startedAt: leg.startedAt,
    request: leg.request ? redactRequest(leg.request) : null,
    response: redactResponse(leg.response),
    stream: legWasDecoded(leg),
    end: legOutcome(leg),
    ...decodeAsOf(choice),
  };
  if (!noEnvelopes) return legHeadLine(head);
  const body = legBody(leg);
  if (body.bytes.byteLength === 0) return legHeadLine(head);
  return legHeadLine(head, { bytes: body.bytes, receivedAt: body.firstByteAt ?? leg.startedAt });
}

/**
 * The bytes each envelope line of a leg carries: the first line of an event its bytes and
 * those before them since the last line that carried any, the leg's last line (`lastSeq`)
 * the rest of the leg. Every byte of a leg with envelopes is on one line.
 */
function wireCursor(leg: LegState, lastSeq: number): (envelope: Envelope) => ExportedWire | undefined {
  let sent = 0;
  return (envelope) => {
    const end = envelope.seq === lastSeq ? leg.raw.bytes : envelope.byteEnd;
    if (end <= sent) return undefined;
    const bytes = leg.raw.slice(sent, end);
    sent = end;
    return wireFields(bytes);
  };
}
