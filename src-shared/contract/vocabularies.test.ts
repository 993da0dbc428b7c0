import { describe, expect, it } from 'vitest';
import { WIRE_FORMATS } from '../agents/wire-formats';
import { SEVERITIES, SEVERITIES_MILDEST_FIRST, SEVERITY_RANK, zeroSeverityCounts } from '../diagnostics/severity';
import { hasJsonPayload, isStreamedKind, isToolCallKind, isToolResultKind } from '../envelope/kinds';
import { CONTENT_CHANNELS, UNIFIED_FAMILIES } from '../envelope/unified';
import { ENVELOPE_KINDS, isKnownEnvelopeType, kindInfo, kindsWhere } from '../envelope/vocabulary';
import { ENVELOPE_FIELDS } from '../filter/envelope-fields';
import { INLINE_MODE_TABLE, INLINE_MODES } from '../inline/types';
import { END_STATUS_KINDS } from '../pipeline/end-status';
import { BLOCK_STATUSES } from '../reconstruct/types';
import { FAILURE_KIND_NAMES, FAILURE_KINDS } from './failure-kinds';
import {
  BlockStatus,
  EndStatus,
  ErrorEvent,
  InlineOptions,
  RunInFormatsRequest,
  Severity,
  SeverityCounts,
} from './payloads';

/** Each vocabulary is one table; the contract's literals and the filter's values read it. */
describe('the contract accepts exactly the entries of each vocabulary table', () => {
  it.each([
    ['severity', Severity, SEVERITIES],
    ['block status', BlockStatus, BLOCK_STATUSES],
    ['end status', EndStatus.shape.kind, END_STATUS_KINDS],
    ['failure kind', ErrorEvent.shape.kind, FAILURE_KIND_NAMES],
    ['inline mode', InlineOptions.shape.mode, INLINE_MODES],
  ] as const)('%s', (_, schema, values) => {
    for (const value of values) expect(schema.parse(value)).toBe(value);
    expect(() => schema.parse('not-in-the-table')).toThrow(/one of/);
  });

  it('wire formats, each at most once per request', () => {
    expect(RunInFormatsRequest.parse({ sessionId: 's', formats: [...WIRE_FORMATS] }).formats).toEqual(WIRE_FORMATS);
    expect(() => RunInFormatsRequest.parse({ sessionId: 's', formats: ['yaml'] })).toThrow(/one of/);
  });

  it('severity counts have one count per severity', () => {
    expect(SeverityCounts.parse(zeroSeverityCounts())).toEqual({ error: 0, warning: 0, info: 0 });
  });
});

describe('vocabulary tables', () => {
  it('ranks severities from info up to error', () => {
    expect(SEVERITY_RANK).toEqual({ info: 0, warning: 1, error: 2 });
    expect(SEVERITIES_MILDEST_FIRST).toEqual(['info', 'warning', 'error']);
  });

  it('gives every failure kind a heading, and timeouts one heading', () => {
    expect(FAILURE_KINDS['idle-timeout'].heading).toBe(FAILURE_KINDS.timeout.heading);
    for (const kind of FAILURE_KIND_NAMES) expect(FAILURE_KINDS[kind].heading).not.toBe('');
  });

  it('gives every inline mode a label and a title', () => {
    for (const mode of INLINE_MODES)
      expect(INLINE_MODE_TABLE[mode].label && INLINE_MODE_TABLE[mode].title).toBeTruthy();
  });

  it('offers the unified families and channels as filter values', () => {
    expect(ENVELOPE_FIELDS.field('event.family')?.values).toEqual(UNIFIED_FAMILIES);
    expect(ENVELOPE_FIELDS.field('event.channel')?.values).toEqual(CONTENT_CHANNELS);
  });
});

describe('the envelope kinds table', () => {
  it('derives the reconstruction rules from its columns', () => {
    expect(Object.keys(ENVELOPE_KINDS).filter(isToolCallKind)).toEqual([
      'tool_call',
      'server_tool_call',
      'custom_tool_call',
    ]);
    expect(['tool_result', 'server_tool_result'].every(isToolResultKind)).toBe(true);
    expect(isToolResultKind('tool_result_image')).toBe(false);
    expect(hasJsonPayload('tool_call') && hasJsonPayload('meta_todo') && hasJsonPayload('message')).toBe(true);
    expect(hasJsonPayload('tool_result') || hasJsonPayload('server_tool_result')).toBe(false);
    expect(isStreamedKind('refusal') && !isStreamedKind('redacted_thinking')).toBe(true);
  });

  it('knows the agent vocabulary, not the provider-only kinds, as known types', () => {
    expect(isKnownEnvelopeType('meta_todo') && isKnownEnvelopeType('tool_call')).toBe(true);
    expect(isKnownEnvelopeType('custom_tool_call') || isKnownEnvelopeType('hook_output')).toBe(false);
    expect(ENVELOPE_FIELDS.field('type')?.values).toEqual([
      ...kindsWhere((k) => k.origin !== 'provider'),
      '[DONE]',
      'error_frame',
    ]);
  });

  it('gives every kind a category', () => {
    for (const kind of Object.keys(ENVELOPE_KINDS)) expect(kindInfo(kind)?.category).toBeTruthy();
    expect(kindInfo('toString')).toBeUndefined();
  });
});
