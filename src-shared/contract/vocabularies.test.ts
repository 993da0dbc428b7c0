import { describe, expect, it } from 'vitest';
import { WIRE_FORMATS } from '../agents/wire-formats';
import { SEVERITIES, SEVERITIES_MILDEST_FIRST, SEVERITY_RANK, zeroSeverityCounts } from '../diagnostics/severity';
import { CONTENT_CHANNELS, UNIFIED_FAMILIES } from '../envelope/unified';
import { ENVELOPE_FIELDS } from '../filter/envelope-fields';
import { INLINE_MODE_TABLE, INLINE_MODES } from '../inline/types';
import { END_STATUS_KINDS } from '../pipeline/end-status';
import { BLOCK_STATUSES } from '../reconstruct/types';
import { FAILURE_KIND_NAMES, FAILURE_KINDS } from './failure-kinds';
import { BlockStatus, EndStatus, ErrorEvent, InlineOptions, RunInFormatsRequest, Severity, SeverityCounts } from './payloads';

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
    for (const mode of INLINE_MODES) expect(INLINE_MODE_TABLE[mode].label && INLINE_MODE_TABLE[mode].title).toBeTruthy();
  });

  it('offers the unified families and channels as filter values', () => {
    expect(ENVELOPE_FIELDS.field('event.family')?.values).toEqual(UNIFIED_FAMILIES);
    expect(ENVELOPE_FIELDS.field('event.channel')?.values).toEqual(CONTENT_CHANNELS);
  });
});
