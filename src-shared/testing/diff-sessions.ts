import type { DialectId } from '../dialects/registry';
import type { DiffInput, DiffRow } from '../diff/types';
import type { Envelope } from '../envelope/types';
import type { AgentInfo, Block, Citation, ImageRef } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import { hasJsonPayload } from '../envelope/kinds';

/*
 * Test support for the session diff (src-shared/diff/diff*.test.ts): decoded sessions built
 * by hand from block specs, and a brief form of the diff's rows.
 */

export const ROOT = 'aaaaaaaa-0000-4000-8000-000000000000';
export const CHILD = 'bbbbbbbb-0000-4000-8000-000000000000';

export interface BlockSpec {
  kind: string;
  content?: string;
  /** The deltas the block was built from (default: the content in one envelope). */
  deltas?: string[];
  agent?: string;
  name?: string;
  toolId?: string;
  status?: Block['status'];
  citations?: Omit<Citation, 'envelope'>[];
  images?: Omit<ImageRef, 'envelope'>[];
  extras?: Record<string, unknown>;
}

interface SessionSpec {
  dialect?: DialectId;
  blocks: BlockSpec[];
  /** uuid → parent uuid; agents not listed are roots. */
  parents?: Record<string, string>;
  /** Extra control envelopes (e.g. xml open tags) per block kind are not modelled here. */
  frames?: boolean;
}

/** A decoded session built by hand: one envelope per delta, blocks as the reconstructor makes them. */
export function session(spec: SessionSpec): DiffInput {
  const dialect = spec.dialect ?? 'json';
  const envelopes: Envelope[] = [];
  const frames: Frame[] = [];
  const blocks: Block[] = [];
  const agents: AgentInfo[] = [];
  let byte = 0;
  for (const [id, b] of spec.blocks.entries()) {
    const agent = b.agent ?? ROOT;
    const content = b.content ?? '';
    const deltas = b.deltas ?? [content];
    const seqs: number[] = [];
    if (!agents.some((a) => a.uuid === agent))
      agents.push({ uuid: agent, parent: spec.parents?.[agent] ?? null, firstEnvelope: envelopes.length });
    for (const [i, delta] of deltas.entries()) {
      const seq = envelopes.length;
      const extras: Record<string, unknown> = {
        ...(b.toolId !== undefined ? { id: b.toolId } : {}),
        ...(b.name !== undefined ? { name: b.name } : {}),
        ...b.extras,
      };
      const data = JSON.stringify({ type: b.kind, agent, final: i === deltas.length - 1, delta, ...extras });
      const size = data.length + 8;
      envelopes.push({
        seq,
        frame: seq,
        leg: 0,
        dialect,
        agent,
        type: b.kind,
        final: i === deltas.length - 1,
        delta,
        extras,
        byteStart: byte,
        byteEnd: byte + size,
        receivedAt: 0,
      });
      frames.push({
        seq,
        byteStart: byte,
        byteEnd: byte + size,
        chunkFirst: 0,
        chunkLast: 0,
        receivedAt: 0,
        event: '',
        data,
        id: '',
        dataLines: 1,
        maxDataLineBytes: data.length,
      });
      byte += size;
      seqs.push(seq);
    }
    const block: Block = {
      id,
      agent,
      kind: b.kind,
      status: b.status ?? 'complete',
      content,
      citations: (b.citations ?? []).map((c) => ({ ...c, envelope: seqs[0] ?? 0 })),
      images: (b.images ?? []).map((i) => ({ ...i, envelope: seqs[0] ?? 0 })),
      envelopes: seqs,
      leg: 0,
      byteStart: 0,
      byteEnd: 0,
    };
    if (b.name !== undefined) block.name = b.name;
    if (b.toolId !== undefined) block.toolId = b.toolId;
    if (hasJsonPayload(b.kind)) block.parsed = JSON.parse(content) as unknown;
    blocks.push(block);
  }
  return { blocks, agents, envelopes, ...(spec.frames ? { frames: [frames] } : {}) };
}

/** JSON spaced as Python's json.dumps spaces it (", " and ": "), as the legacy server sends meta payloads. */
export const spaced = (value: unknown): string => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');

export const brief = (rows: readonly DiffRow[]): string[] =>
  rows.map(
    (r) =>
      `${r.status} ${r.kind}${r.inherent ? ` [${r.inherent}]` : ''}${r.normalisations.length ? ` {${r.normalisations.join(',')}}` : ''}`,
  );

export const text = (content: string, agent?: string): BlockSpec => ({
  kind: 'text',
  content,
  ...(agent ? { agent } : {}),
});
export const call = (id: string, name: string, args: string): BlockSpec => ({
  kind: 'tool_call',
  toolId: id,
  name,
  content: args,
});
export const result = (id: string, name: string, content: string, images?: BlockSpec['images']): BlockSpec => ({
  kind: 'tool_result',
  toolId: id,
  name,
  content,
  ...(images ? { images } : {}),
});
