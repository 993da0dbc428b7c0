import type { RuleId } from '../../diagnostics/rules';
import type { DiagnosticLocation } from '../../diagnostics/types';
import { unnumberedEnvelope } from '../../envelope/numbering';
import { undecodedParts, type ControlKind, type EnvelopeInit } from '../../envelope/types';
import type { UnifiedEvent } from '../../envelope/unified';
import { errorMessage, isJsonObject, jsonKind, parseJson } from '../../json/values';
import type { Frame } from '../../sse/types';
import { previewText } from '../../text/preview';
import type { DialectCallbacks } from '../types';

export type EnvelopeParts = Omit<EnvelopeInit, 'frame' | 'agent'>;
export type WireEvent = Record<string, unknown>;

/**
 * One provider event being decoded: where it is, and how its envelopes and findings leave.
 * Shared by the provider dialects (Anthropic Messages, OpenAI Responses). A dialect keeps
 * one for the events it is pushed and moves it to each (`next`): nothing of it outlives
 * the event.
 */
export class ProviderEventContext {
  // Declared, not class fields: ES2022 [[Define]] field initializers cost more per instance
  // than the event's decoding in Node 20's V8.
  declare frame: Frame;
  declare private readonly callbacks: DialectCallbacks;
  declare private agent: string;

  constructor(frame: Frame, callbacks: DialectCallbacks, agent: string) {
    this.frame = frame;
    this.callbacks = callbacks;
    this.agent = agent;
  }

  /** The context of the next event pushed (this one, moved: one object per decoder, not per event). */
  next(frame: Frame, agent: string): this {
    this.frame = frame;
    this.agent = agent;
    return this;
  }

  /** Where the event is: made when a finding or a block asks, not for every event. */
  get at(): DiagnosticLocation {
    return { frame: this.frame.seq, byteStart: this.frame.byteStart, byteEnd: this.frame.byteEnd };
  }

  report(rule: RuleId, message: string): void {
    this.callbacks.onDiagnostic({ rule, message, at: this.at });
  }

  emit(parts: EnvelopeParts, unifiedEvent?: UnifiedEvent): void {
    this.envelope(parts.type, parts.final, parts.delta, parts.extras, parts.control, unifiedEvent);
  }

  /**
   * `emit` without the parts object, for the events that come by the thousand (deltas). The
   * envelope is made in its final shape (unnumberedEnvelope): the pipeline numbers it in place
   * instead of copying it; a spread of objects of varying shapes is slow in V8.
   */
  envelope(
    type: string,
    final: boolean,
    delta: string,
    extras: Record<string, unknown>,
    control: ControlKind | undefined,
    unifiedEvent: UnifiedEvent | undefined,
  ): void {
    this.callbacks.onEnvelope(
      unnumberedEnvelope(this.frame.seq, this.agent, type, final, delta, extras, control, unifiedEvent),
    );
  }

  /**
   * The wire event itself, shown in the timeline as a provider event (its fields as extras).
   * `delta`: the text fragment it streams that no block takes as it comes (a tool call's
   * argument text, joined when the call ends), so that its row shows it and filters find it.
   */
  wire(type: string, event: WireEvent, unifiedEvent?: UnifiedEvent, delta = ''): void {
    this.envelope(type, true, delta, eventFields(event), 'provider-event', unifiedEvent);
  }
}

/** Every field of the event except `type`: the extras of a provider-event envelope. */
export function eventFields(event: WireEvent): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key in event) {
    if (key === 'type') continue;
    // A "__proto__" key from the wire stays a plain field: assignment would set the prototype.
    if (key === '__proto__')
      Object.defineProperty(fields, key, { value: event[key], enumerable: true, writable: true, configurable: true });
    else fields[key] = event[key];
  }
  return fields;
}

/**
 * The event's JSON object, whose `type` is a string; reports and keeps the data undecoded when
 * it is not a JSON object with a string `type`. (The type is read from the object again by
 * the caller: one object less per event.)
 */
export function readWireEvent(ctx: ProviderEventContext, dialectName: string): WireEvent | undefined {
  let value: unknown;
  try {
    value = JSON.parse(ctx.frame.data);
  } catch (error) {
    ctx.report(
      'provider.invalid-event',
      `Event ${ctx.frame.seq} is not valid JSON (${errorMessage(error)}); kept undecoded: ${previewText(ctx.frame.data)}`,
    );
    ctx.emit(undecodedParts(ctx.frame));
    return undefined;
  }
  if (!isJsonObject(value) || typeof value['type'] !== 'string') {
    ctx.report(
      'provider.invalid-event',
      `Event ${ctx.frame.seq} is a JSON ${jsonKind(value)} without a string "type", so it is no ${dialectName} event; kept undecoded: ${previewText(ctx.frame.data)}`,
    );
    ctx.emit(undecodedParts(ctx.frame));
    return undefined;
  }
  return value;
}

export function stringField(object: WireEvent, key: string): string {
  const value = object[key];
  return typeof value === 'string' ? value : '';
}

export function integerField(object: WireEvent, key: string): number | undefined {
  const value = object[key];
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

export function objectField(object: WireEvent, key: string): WireEvent {
  const value = object[key];
  return isJsonObject(value) ? value : {};
}

/** Complete tool arguments: valid JSON, or the parse error (reported as provider.tool-args-invalid). */
export function checkToolArguments(ctx: ProviderEventContext, text: string, what: string): void {
  if (text.trim() === '') return;
  const parsed = parseJson(text);
  if (!parsed.ok)
    ctx.report(
      'provider.tool-args-invalid',
      `${what}: its complete arguments do not parse as JSON (${parsed.error}), so a client cannot call the tool: ${previewText(text)}`,
    );
}
