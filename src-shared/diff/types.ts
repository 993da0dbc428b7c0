import type { DialectId, DialectRegistry } from '../dialects/registry';
import type { Envelope } from '../envelope/types';
import type { AgentInfo, Block } from '../reconstruct/types';
import type { Frame } from '../sse/types';
import type { InherentId } from './inherent';
import type { NormalisationId } from './normalisations';

/**
 * Why a difference is not a defect: a normalisation the diff applied (normalisations.ts) or a
 * difference inherent in the formats (inherent.ts).
 */
export interface Explanation {
  /** A few words for a table cell. */
  label: string;
  description: string;
}

/** One side of a diff: what a decoded session holds (a DecodeResult fits). */
export interface DiffInput {
  blocks: readonly Block[];
  agents: readonly AgentInfo[];
  envelopes: readonly Envelope[];
  /** Frames per leg; when given, escape sequences on the wire are counted. */
  frames?: readonly (readonly Frame[])[];
}

export interface DiffOptions {
  /**
   * Align blocks across agents instead of per agent. Chosen automatically when a side
   * cannot attribute sub-agents (xml/raw items carry no agent id) and a sub-agent exists.
   */
  flattenAgents?: boolean;
  /** The dialects the sessions were decoded with, for what they say of their wire; the built-in registry by default. */
  dialects?: DialectRegistry;
}

/** Which server generation produced a side; the agent_base server drifted from the legacy one. */
export type Generation = 'legacy' | 'agent_base';

/** What the diff learned about one side before comparing. */
export interface SideProfile {
  /** Dialects that decoded the side, in first-seen order ([DONE] and error frames, shared by all, aside). */
  dialects: DialectId[];
  /** Absent when no dialect of the side is the upstream agent server's (DialectModule.serverGenerations). */
  generation?: Generation;
  /** False when items carry no agent id (xml, raw): sub-agents cannot be told apart. */
  attributesAgents: boolean;
  /** A dialect of the side carries the agent layer's XML items (xml, raw; DialectModule.agentXmlItems). */
  xmlItems: boolean;
  /** Every dialect of the side writes its text as XML character data (xml; DialectModule.textAsXml). */
  xmlText: boolean;
  /** The side's agents; blocks that name none are not one (`unattributed`). */
  agents: number;
  /** Some of its blocks name no agent (an export written before this was known has it absent). */
  unattributed?: boolean;
  blocks: number;
}

export type RowStatus = 'equal' | 'changed' | 'only-left' | 'only-right';

export interface RowSide {
  blockId: number;
  agent: string;
  /** The block as compared, after the row's normalisations: what a diff editor shows. */
  text: string;
}

/** One line of the block alignment. */
export interface DiffRow {
  status: RowStatus;
  /** Index into SessionDiff.agents of the agent pair the row belongs to. */
  pair: number;
  kind: string;
  name?: string;
  toolId?: string;
  left?: RowSide;
  right?: RowSide;
  /** A short explanation: what differs, or which normalisations made the sides equal. */
  reason: string;
  /** Normalisations that changed what was compared (empty when the blocks were equal as sent). */
  normalisations: NormalisationId[];
  /** Set when the difference is an inherent property of the formats, not a defect. */
  inherent?: InherentId;
}

export interface DiffCounts {
  equal: number;
  changed: number;
  onlyLeft: number;
  onlyRight: number;
  /** Rows that are not equal but explained by an inherent format difference. */
  inherent: number;
  /** Rows that are not equal and not explained: real differences. */
  differences: number;
  /** Equal rows that needed at least one normalisation. */
  normalised: number;
}

export interface AgentPair {
  left?: string;
  right?: string;
  /** How the pair was matched. */
  by: 'uuid' | 'structure' | 'order' | 'unmatched';
}

/** Per side, per (agent pair, envelope type): what the wire looked like. */
export interface EnvelopeTypeStats {
  envelopes: number;
  /** Blocks built from envelopes of this type, and how many of them used more than one envelope. */
  blocks: number;
  chunkedBlocks: number;
  maxEnvelopesPerBlock: number;
  /** Bytes of the SSE frames these envelopes came from (a frame shared by envelopes counts once). */
  wireBytes: number;
  /** UTF-8 bytes of the deltas. */
  payloadBytes: number;
  /** Backslash escapes and character references on the wire; null when frames were not given. */
  escapes: number | null;
  /** Extra envelope fields seen (id, name, envelope_log, …), sorted. */
  extras: string[];
}

export type EnvelopeAspect = 'envelopes' | 'chunking' | 'wire-bytes' | 'escaping' | 'extras';

/** A wire-level difference that does not change the blocks (or is reported beside them). */
export interface EnvelopeDifference {
  pair: number;
  type: string;
  aspect: EnvelopeAspect;
  left: number | string;
  right: number | string;
  note: string;
}

export interface EnvelopeSummary {
  /** Index = AgentPair index; type → stats. Control envelopes are keyed `control:<kind>`. */
  left: Record<string, EnvelopeTypeStats>[];
  right: Record<string, EnvelopeTypeStats>[];
  totals: { left: SideTotals; right: SideTotals };
  differences: EnvelopeDifference[];
}

export interface SideTotals {
  envelopes: number;
  frames: number;
  wireBytes: number;
  payloadBytes: number;
}

export interface SessionDiff {
  left: SideProfile;
  right: SideProfile;
  agents: AgentPair[];
  flattened: boolean;
  rows: DiffRow[];
  counts: DiffCounts;
  envelopes: EnvelopeSummary;
}
