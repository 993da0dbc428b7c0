import type { RuleId } from '../../diagnostics/rules';
import type { DiagnosticLocation } from '../../diagnostics/types';
import { isJsonObject, jsonKind, parseJson } from '../../json/values';
import { previewText } from '../../text/preview';
import type { Frame } from '../../sse/types';
import { type DialectCallbacks, type DialectDecoder, type DialectOptions } from '../types';
import { undecodedParts } from '../../envelope/types';
import { createAnnouncedFormatCheck } from './announced-format';
import { assessEnvelopeBudget, DEFAULT_CHUNK_BUDGET, frameDataBytes, type BudgetOverrun } from '../../envelope/budget';
import { readEnvelopeFields, type EnvelopeFields } from './fields';
import { findLoneSurrogateEscapes } from './surrogates';
import { isKnownEnvelopeType, isStreamedEnvelopeType } from '../../envelope/vocabulary';

/**
 * The JSON envelope dialect (docs/protocols/json-envelopes.md, legacy `anthropic_agent` and `agent_base` servers):
 * one SSE event = one `{type, agent, final, delta, ...extras}` object. Envelopes are passed
 * on as sent — unknown types and every extra kept verbatim, deltas not interpreted (a
 * citation's delta may be a JSON object string, a tool result's extras may hold a JSON
 * string log): meaning is reconstruction's job. Anything that does not decode becomes a
 * diagnostic plus an `undecoded` control envelope holding the raw data, so nothing is lost.
 */
export function createJsonEnvelopeDecoder(callbacks: DialectCallbacks, options: DialectOptions = {}): DialectDecoder {
  const budget = options.chunkBudget ?? DEFAULT_CHUNK_BUDGET;
  const defaultAgent = options.defaultAgent ?? '';
  const unknownTypesSeen = new Set<string>();
  const announcedFormat = createAnnouncedFormatCheck();

  function push(frame: Frame): void {
    const data = frame.data;

    checkSurrogates(frame);

    const parsed = parseJson(data);
    if (!parsed.ok) {
      report(frame, 'json.invalid', `Event ${frame.seq} is not valid JSON (${parsed.error}); kept undecoded. Data: ${previewText(data)}`);
      emitUndecoded(frame);
      return;
    }
    const value = parsed.value;
    if (!isJsonObject(value)) {
      report(frame, 'envelope.missing-field', `Event ${frame.seq} is a JSON ${jsonKind(value)}, not an envelope object, so it has none of type, agent, final, delta; kept undecoded. Data: ${previewText(data)}`);
      emitUndecoded(frame);
      return;
    }

    const fields = readEnvelopeFields(value, defaultAgent);
    for (const issue of fields.issues) report(frame, issue.rule, `Event ${frame.seq}: ${issue.message}`);
    if (typeof value['type'] === 'string') checkType(frame, fields.type);
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter data cannot be over the budget.
    const overrun = data.length * 3 > budget ? assessEnvelopeBudget(fields, fields.delta, frameDataBytes(frame), budget) : undefined;
    if (overrun) reportOverrun(frame, fields, overrun);

    callbacks.onEnvelope({ frame: frame.seq, agent: fields.agent, type: fields.type, final: fields.final, delta: fields.delta, extras: fields.extras });

    if (fields.type === 'meta_init') {
      const format = announcedFormat.push(fields.agent, fields.delta, fields.final);
      if (format !== undefined && format !== 'json') {
        report(frame, 'stream.format-mismatch', `meta_init of agent ${JSON.stringify(fields.agent)} announces format ${JSON.stringify(format)}, but the stream is JSON envelopes and is decoded as such.`);
      }
    }
  }

  function report(frame: Frame, rule: RuleId, message: string): void {
    const at: DiagnosticLocation = { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd };
    callbacks.onDiagnostic({ rule, message, at });
  }

  function emitUndecoded(frame: Frame): void {
    callbacks.onEnvelope({ frame: frame.seq, agent: defaultAgent, ...undecodedParts(frame) });
  }

  function checkSurrogates(frame: Frame): void {
    const lone = findLoneSurrogateEscapes(frame.data);
    const first = lone[0];
    if (!first) return;
    const count = lone.length === 1 ? 'an unpaired surrogate escape' : `${lone.length} unpaired surrogate escapes`;
    report(frame, 'json.lone-surrogate', `Event ${frame.seq} has ${count} (first: ${first.escape} at character ${first.index} of the data). JSON.parse accepts it, but the string then holds half a character that is shown as U+FFFD.`);
  }

  function checkType(frame: Frame, type: string): void {
    if (isKnownEnvelopeType(type) || unknownTypesSeen.has(type)) return;
    unknownTypesSeen.add(type);
    report(frame, 'envelope.unknown-type', `Envelope type ${JSON.stringify(type)} (first seen in event ${frame.seq}) is not in the known vocabulary; its envelopes are kept and shown as sent, and later ones are not reported again.`);
  }

  function reportOverrun(frame: Frame, fields: EnvelopeFields, o: BudgetOverrun): void {
    const head = `Event ${frame.seq} (${fields.type}) is ${o.wireBytes} bytes, over the ${o.budget}-byte budget`;
    if (o.cause === 'after-escaping') {
      report(frame, 'envelope.over-budget-after-escaping', `${head}, yet its unescaped delta (${o.deltaBytes} bytes) fits the ${o.maxDeltaBytes} bytes the upstream chunker allows beside ${o.overhead} bytes of envelope: JSON escaping adds ${o.escapingBytes} bytes to the delta, and the chunker does not count them.`);
    } else if (o.degenerate) {
      report(frame, 'envelope.over-budget', `${head}: its other fields take ${o.overhead} bytes and leave fewer than 64 for the delta, so the upstream chunker allows the whole budget to the delta (${o.deltaBytes} bytes here) and envelopes of this shape always exceed it.`);
    } else if (isStreamedEnvelopeType(fields.type)) {
      report(frame, 'envelope.over-budget', `${head}: its delta alone is ${o.deltaBytes} bytes. Upstream forwards ${fields.type} deltas as the model streamed them and never chunks them.`);
    } else {
      report(frame, 'envelope.over-budget', `${head}: its unescaped delta is ${o.deltaBytes} bytes, more than the ${o.maxDeltaBytes} bytes the upstream chunker allows beside ${o.overhead} bytes of envelope, so the server did not chunk this payload.`);
    }
  }

  return {
    id: 'json',
    push,
    end() {
      // Nothing is buffered across events: each event is one complete envelope.
    },
  };
}
