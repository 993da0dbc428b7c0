/** The hand-made sessions the reconstructor's tests push envelopes through (test support). */
import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticInit } from '../diagnostics/types';
import { NO_EXTRAS, type ControlKind, type Envelope } from '../envelope/types';
import { createReconstructor, type ReconstructorOptions } from './reconstructor';
import type { AgentInfo, Block } from './types';

export const A = 'aaaaaaaa-0000-4000-8000-000000000000';
export const B = 'bbbbbbbb-0000-4000-8000-000000000000';

/** An envelope of one plain delta, its frame numbered like it, at no byte offset: for tests that push their own. */
export function plainEnvelope(seq: number, agent: string, type: string, delta: string, final = false): Envelope {
  return {
    seq,
    frame: seq,
    leg: 0,
    dialect: 'json',
    agent,
    type,
    final,
    delta,
    extras: NO_EXTRAS,
    byteStart: 0,
    byteEnd: 0,
    receivedAt: 0,
  };
}

interface EnvOptions {
  final?: boolean;
  agent?: string;
  extras?: Record<string, unknown>;
  control?: ControlKind;
  /** The delta as its dialect parsed it (handed on with the envelope). */
  payload?: unknown;
}

/**
 * A hand-made session: envelopes get consecutive seqs, one frame each, and byte offsets that
 * restart in every leg (as the wire's do).
 */
export function session(options: ReconstructorOptions = {}) {
  const diagnostics: DiagnosticInit[] = [];
  const blockEvents: { id: number; status: Block['status']; content: string }[] = [];
  const agentEvents: AgentInfo[] = [];
  const r = createReconstructor(
    {
      onBlock: (b) => blockEvents.push({ id: b.id, status: b.status, content: b.content }),
      onAgent: (a) => agentEvents.push({ ...a }),
      onDiagnostic: (d) => diagnostics.push(d),
    },
    options,
  );
  let seq = 0;
  let leg = 0;
  let frame = 0;
  let offset = 0;
  const push = (type: string, delta = '', o: EnvOptions = {}): Envelope => {
    const size = 40 + delta.length;
    const envelope: Envelope = {
      seq: seq++,
      frame: frame++,
      leg,
      dialect: 'json',
      agent: o.agent ?? A,
      type,
      final: o.final ?? false,
      delta,
      // The shared empty extras the dialects give a plain delta: such deltas take the reconstructor's delta lane.
      extras: o.extras ?? NO_EXTRAS,
      byteStart: offset,
      byteEnd: offset + size,
      receivedAt: 0,
      ...(o.control ? { control: o.control } : {}),
    };
    offset += size;
    r.push(envelope, o.payload);
    return envelope;
  };
  return {
    r,
    push,
    final: (type: string, delta = '', o: EnvOptions = {}) => push(type, delta, { ...o, final: true }),
    /** Streamed text: one envelope per delta, then the empty final marker. */
    text: (deltas: string[], agent = A) => {
      for (const d of deltas) push('text', d, { agent });
      return push('text', '', { agent, final: true });
    },
    newLeg: () => {
      leg++;
      frame = 0;
      offset = 0;
    },
    diagnostics,
    blockEvents,
    agentEvents,
    rules: () => diagnostics.map((d) => d.rule),
    count: (rule: RuleId) => diagnostics.filter((d) => d.rule === rule).length,
    blocks: () => r.blocks(),
    kinds: (kind: string) => r.blocks().filter((b) => b.kind === kind),
  };
}

export const tool = (id: string, name: string) => ({ extras: { id, name } });
