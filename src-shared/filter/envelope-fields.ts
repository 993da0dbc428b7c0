import { AGENT_BASE_ENVELOPE_TYPES, SEED_ENVELOPE_TYPES } from '../envelope/vocabulary';
import { SEVERITIES_MILDEST_FIRST } from '../diagnostics/severity';
import type { Diagnostic } from '../diagnostics/types';
import { CONTROL_KINDS, type Envelope } from '../envelope/types';
import { BLOCK_STATUSES, type Block } from '../reconstruct/types';
import { DIALECT_IDS } from '../dialects/registry';
import { FieldTable, type FieldValue } from './fields';
import { SEGMENT_FIELDS } from './segment-fields';
import { UNIFIED_FIELDS } from './unified-fields';

/** One envelope as a filter sees it: the envelope with its agent's name, block and findings. */
export interface EnvelopeSubject {
  readonly envelope: Envelope;
  /** The agent's name as the UI shows it ("main", "sub 1"). */
  readonly agentName: string;
  readonly block: Block | undefined;
  /** Findings on the envelope, on its frame, or on its block. */
  readonly findings: readonly Diagnostic[];
  /** Milliseconds since the session's first request (0 when the source has no timing). */
  readonly time: number;
}

const ENVELOPE_TYPES: readonly string[] = [...SEED_ENVELOPE_TYPES, ...AGENT_BASE_ENVELOPE_TYPES];

const extra = (subject: EnvelopeSubject, key: string): FieldValue | undefined => {
  const value = subject.envelope.extras[key];
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
};

/**
 * The envelope fields of the filter language (documented in docs/filters.md). Text fields
 * compare exactly (`contains` is case-sensitive); a bare quoted string searches `text`.
 */
export const ENVELOPE_FIELDS = new FieldTable<EnvelopeSubject>()
  .define({
    name: 'type',
    type: 'string',
    values: [...ENVELOPE_TYPES, '[DONE]', 'error_frame'],
    description: 'envelope type (text, tool_call, meta_init, [DONE], error_frame…)',
    get: (s) => s.envelope.type,
  })
  .define({
    name: 'agent',
    type: 'string',
    description: 'agent name as shown ("main", "sub 1") or its uuid',
    get: (s) => [s.agentName, s.envelope.agent],
  })
  .define({
    name: 'final',
    type: 'boolean',
    description: 'the envelope closes its block',
    get: (s) => s.envelope.final,
  })
  .define({
    name: 'bytes',
    type: 'number',
    description: "bytes of the envelope's SSE event on the wire",
    get: (s) => s.envelope.byteEnd - s.envelope.byteStart,
  })
  .define({ name: 'delta', type: 'string', description: 'the delta text', get: (s) => s.envelope.delta })
  .define({
    name: 'id',
    type: 'string',
    description: 'the id field (tool_use id) when present',
    get: (s) => extra(s, 'id'),
  })
  .define({
    name: 'name',
    type: 'string',
    description: 'the name field (tool name) when present',
    get: (s) => extra(s, 'name'),
  })
  .define({
    name: 'leg',
    type: 'number',
    description: 'leg of the session (0 = first request, 1 = first tool_results continuation…)',
    get: (s) => s.envelope.leg,
  })
  .define({
    name: 'seq',
    type: 'number',
    description: "the envelope's number in the session, from 0",
    get: (s) => s.envelope.seq,
  })
  .define({
    name: 'time',
    type: 'duration',
    description: 'time since the first request (2s, 150ms)',
    get: (s) => s.time,
  })
  .define({
    name: 'dialect',
    type: 'string',
    values: DIALECT_IDS,
    description: 'wire dialect that decoded the envelope',
    get: (s) => s.envelope.dialect,
  })
  .define({
    name: 'control',
    type: 'string',
    values: CONTROL_KINDS,
    description: 'kind of control envelope ([DONE], error frame…); absent on content',
    get: (s) => s.envelope.control,
  })
  .define({
    name: 'block.kind',
    type: 'string',
    values: ENVELOPE_TYPES,
    description: 'kind of the block the envelope belongs to',
    get: (s) => s.block?.kind,
  })
  .define({
    name: 'block.content',
    type: 'string',
    description: "the whole content of the envelope's block",
    get: (s) => s.block?.content,
    sharedBy: (s) => s.block && { key: s.block, version: s.block.envelopes.length },
  })
  .define({
    name: 'block.status',
    type: 'string',
    values: BLOCK_STATUSES,
    description: 'open, complete or abandoned',
    get: (s) => s.block?.status,
  })
  .define({
    name: 'finding.rule',
    type: 'string',
    description: 'rule id of any finding on the envelope (docs/diagnostics.md)',
    get: (s) => s.findings.map((f) => f.rule),
  })
  .define({
    name: 'finding.severity',
    type: 'string',
    order: SEVERITIES_MILDEST_FIRST,
    values: SEVERITIES_MILDEST_FIRST,
    description: 'severity of any finding: info < warning < error',
    get: (s) => s.findings.map((f) => f.severity),
  })
  .definePrefix('extras.', (name, key) => ({
    name,
    type: 'any',
    description: `the envelope's ${key} field as sent`,
    get: (s) => extra(s, key),
  }));
for (const field of [...UNIFIED_FIELDS, ...SEGMENT_FIELDS]) ENVELOPE_FIELDS.define(field);

/** What a bare quoted string searches, any case: delta, type, agent (name and uuid), id, name. */
export function envelopeText(subject: EnvelopeSubject): string[] {
  const out = [subject.envelope.delta, subject.envelope.type, subject.agentName, subject.envelope.agent];
  const id = extra(subject, 'id');
  const name = extra(subject, 'name');
  if (typeof id === 'string') out.push(id);
  if (typeof name === 'string') out.push(name);
  return out;
}
