import type { RuleId } from '../../diagnostics/rules';
import type { DiagnosticLocation } from '../../diagnostics/types';
import { errorMessage, isJsonObject, jsonKind } from '../../json/values';
import { previewText } from '../../text/preview';
import type { Frame } from '../../sse/types';
import { type DialectCallbacks, type DialectDecoder, type DialectOptions } from '../types';
import { NO_EXTRAS, undecodedParts, type EnvelopeInit } from '../../envelope/types';
import { ShapeReader } from '../../json/shapes';
import { agentNamedIn } from './agent-in-bytes';
import { createAnnouncedFormatCheck } from './announced-format';
import {
  assessEnvelopeBudget,
  DEFAULT_CHUNK_BUDGET,
  frameDataBytes,
  handOnMeasure,
  type BudgetOverrun,
} from '../../envelope/budget';
import { readEnvelopeFields, type FieldIssue } from './fields';
import { findLoneSurrogateEscapes } from './surrogates';
import { KIND, isKnownEnvelopeType, isStreamedEnvelopeType } from '../../envelope/vocabulary';

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
  const agents = createRecentStrings();
  const shapes = new ShapeReader([ENVELOPE_SHAPE], options.readShapes !== false);

  function push(frame: Frame): void {
    // A healthy event read ahead on another thread (a large file's parallel decode).
    const ready = options.prepared?.take(frame);
    if (ready) accept(frame, ready);
    else read(frame);
  }

  /** The rest of a healthy event's decoding, which depends on the events before it. */
  function accept(frame: Frame, fields: EnvelopeInit): void {
    fields.agent = agents.same(fields.agent);
    checkType(frame, fields.type);
    callbacks.onEnvelope(fields);
    if (fields.type === KIND.meta_init) checkAnnouncedFormat(frame, fields);
  }

  function read(frame: Frame): void {
    const data = frame.data;

    checkSurrogates(frame);

    const fields = shapes.read(data) ? shapedFields(frame) : parsedFields(frame);
    if (fields === undefined) return;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter data cannot be over the budget.
    const overrun =
      data.length * 3 > budget ? assessEnvelopeBudget(fields, fields.delta, frameDataBytes(frame), budget) : undefined;
    if (overrun) reportOverrun(frame, fields, overrun);

    callbacks.onEnvelope(fields);
    if (fields.type === KIND.meta_init) checkAnnouncedFormat(frame, fields);
  }

  function checkAnnouncedFormat(frame: Frame, fields: EnvelopeInit): void {
    const format = announcedFormat.push(fields.agent, fields.delta, fields.final);
    if (format !== undefined && format !== 'json') {
      report(
        frame,
        'stream.format-mismatch',
        `meta_init of agent ${JSON.stringify(fields.agent)} announces format ${JSON.stringify(format)}, but the stream is JSON envelopes and is decoded as such.`,
      );
    }
  }

  /** The envelope in the upstream formatter's own shape, read without JSON.parse (fields in the same order as readEnvelopeFields makes them). */
  function shapedFields(frame: Frame): EnvelopeInit {
    const type = shapes.string(0);
    const agent = agents.same(shapes.string(1));
    checkType(frame, type);
    const delta = shapes.string(3);
    // The statistics measure every delta; this one's size follows from the framer's count.
    const bytes = shapes.lastStringBytes(frameDataBytes(frame));
    if (bytes !== -1) handOnMeasure(delta, bytes, bytes);
    return { frame: frame.seq, agent, type, final: shapes.flag(2), delta, extras: NO_EXTRAS };
  }

  /** Any other event through JSON.parse: its fields, or undefined when it is no envelope object (reported, kept undecoded). */
  function parsedFields(frame: Frame): EnvelopeInit | undefined {
    const data = frame.data;
    // JSON.parse itself, not parseJson: no result object per event.
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch (error) {
      report(
        frame,
        'json.invalid',
        `Event ${frame.seq} is not valid JSON (${errorMessage(error)}); kept undecoded. Data: ${previewText(data)}`,
      );
      emitUndecoded(frame);
      return undefined;
    }
    if (!isJsonObject(value)) {
      report(
        frame,
        'envelope.missing-field',
        `Event ${frame.seq} is a JSON ${jsonKind(value)}, not an envelope object, so it has none of type, agent, final, delta; kept undecoded. Data: ${previewText(data)}`,
      );
      emitUndecoded(frame);
      return undefined;
    }
    current = frame;
    const fields = readEnvelopeFields(value, defaultAgent, frame.seq, reportIssue);
    fields.agent = agents.same(fields.agent);
    if (typeof value['type'] === 'string') checkType(frame, fields.type);
    return fields;
  }

  /** The frame whose fields are being read, for `reportIssue` (one function, not a closure per event). */
  let current: Frame | undefined;
  function reportIssue(issue: FieldIssue): void {
    if (current) report(current, issue.rule, `Event ${current.seq}: ${issue.message}`);
  }

  function report(frame: Frame, rule: RuleId, message: string): void {
    const at: DiagnosticLocation = { frame: frame.seq, byteStart: frame.byteStart, byteEnd: frame.byteEnd };
    callbacks.onDiagnostic({ rule, message, at });
  }

  /** An event that does not decode belongs to the agent its bytes name, else to no agent ('' or the session's default). */
  function emitUndecoded(frame: Frame): void {
    const named = agentNamedIn(frame.data);
    const agent = named === undefined ? defaultAgent : agents.same(named);
    callbacks.onEnvelope({ frame: frame.seq, agent, ...undecodedParts(frame) });
  }

  function checkSurrogates(frame: Frame): void {
    const lone = findLoneSurrogateEscapes(frame.data);
    const first = lone[0];
    if (!first) return;
    const count = lone.length === 1 ? 'an unpaired surrogate escape' : `${lone.length} unpaired surrogate escapes`;
    report(
      frame,
      'json.lone-surrogate',
      `Event ${frame.seq} has ${count} (first: ${first.escape} at character ${first.index} of the data). JSON.parse accepts it, but the string then holds half a character that is shown as U+FFFD.`,
    );
  }

  function checkType(frame: Frame, type: string): void {
    if (isKnownEnvelopeType(type) || unknownTypesSeen.has(type)) return;
    unknownTypesSeen.add(type);
    report(
      frame,
      'envelope.unknown-type',
      `Envelope type ${JSON.stringify(type)} (first seen in event ${frame.seq}) is not in the known vocabulary; its envelopes are kept and shown as sent, and later ones are not reported again.`,
    );
  }

  function reportOverrun(frame: Frame, fields: EnvelopeInit, o: BudgetOverrun): void {
    const head = `Event ${frame.seq} (${fields.type}) is ${o.wireBytes} bytes, over the ${o.budget}-byte budget`;
    if (o.cause === 'after-escaping') {
      report(
        frame,
        'envelope.over-budget-after-escaping',
        `${head}, yet its unescaped delta (${o.deltaBytes} bytes) fits the ${o.maxDeltaBytes} bytes the upstream chunker allows beside ${o.overhead} bytes of envelope: JSON escaping adds ${o.escapingBytes} bytes to the delta, and the chunker does not count them.`,
      );
    } else if (o.degenerate) {
      report(
        frame,
        'envelope.over-budget',
        `${head}: its other fields take ${o.overhead} bytes and leave fewer than 64 for the delta, so the upstream chunker allows the whole budget to the delta (${o.deltaBytes} bytes here) and envelopes of this shape always exceed it.`,
      );
    } else if (isStreamedEnvelopeType(fields.type)) {
      report(
        frame,
        'envelope.over-budget',
        `${head}: its delta alone is ${o.deltaBytes} bytes. Upstream forwards ${fields.type} deltas as the model streamed them and never chunks them.`,
      );
    } else {
      report(
        frame,
        'envelope.over-budget',
        `${head}: its unescaped delta is ${o.deltaBytes} bytes, more than the ${o.maxDeltaBytes} bytes the upstream chunker allows beside ${o.overhead} bytes of envelope, so the server did not chunk this payload.`,
      );
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

/**
 * The upstream formatter's envelope: its four base fields in this order, compact, no extras
 * (nearly every delta of a stream). Anything else goes through JSON.parse.
 */
const ENVELOPE_SHAPE = '{"type":"{id}","agent":"{id}","final":{bool},"delta":"{str}"}';

/** How many agents' strings are kept: a session interleaves a main agent and a few sub-agents. */
const RECENT_AGENTS = 4;

/**
 * The last few distinct strings seen, each handed out again for an equal string. JSON.parse
 * makes a new string of each event's agent uuid, and the stages after the dialect look the
 * agent up in maps (the reconstructor's agent states, statistics, the session store), each
 * lookup hashing a new 36-character string; one string per agent keeps its hash after the
 * first lookup, and comparing against it is one memory comparison.
 */
function createRecentStrings(): { same(text: string): string } {
  const recent: string[] = [];
  let next = 0;
  return {
    same(text) {
      for (let i = 0; i < recent.length; i++) {
        const known = recent[i] as string;
        if (known === text) return known;
      }
      recent[next] = text;
      next = (next + 1) % RECENT_AGENTS;
      return text;
    },
  };
}
