import { zeroSeverityCounts } from '../../../src-shared/diagnostics/severity';
import type { Diagnostic, Severity } from '../../../src-shared/diagnostics/types';
import { awaitedBy, pauseFacts, type Awaited, type EndFacts } from '../../../src-shared/pipeline/end-status';
import {
  createSessionDecoder,
  type SessionDecoder,
  type SessionDecoderOptions,
} from '../../../src-shared/pipeline/session-decoder';
import type { LegDecoder, LegEnd } from '../../../src-shared/pipeline/types';
import type { Block } from '../../../src-shared/reconstruct/types';
import { awaitsClient } from '../../../src-shared/reconstruct/payloads';

/**
 * The shared decoder with a counting sink: what a long live recording needs to say how it
 * ended (counts, findings, end status) in memory that does not grow with the stream. Frames
 * and envelopes are counted, not kept; findings are counted per rule with their first
 * `FINDING_EXAMPLES`; the decoder keeps only what can still change (`open` retention: closed
 * blocks are counted, idle agents beyond a thousand let go), and a closed block it still holds
 * (a call waiting for its result) gives up its content. The bytes are in the recording, and
 * `inspect` of it rebuilds everything.
 */

/** How many findings of each rule are kept whole; the counts cover all of them. */
export const FINDING_EXAMPLES = 5;

export interface RuleFindings {
  rule: Diagnostic['rule'];
  severity: Severity;
  count: number;
  /** The first FINDING_EXAMPLES findings of the rule, in the order they were found. */
  examples: Diagnostic[];
}

export interface CountedSession {
  /** Per leg: the dialect that decoded it, and how its stream ended. */
  legs: LegEnd[];
  frames: number;
  envelopes: number;
  envelopeTypes: Record<string, number>;
  blocks: number;
  agents: number;
  severities: Record<Severity, number>;
  /** Per rule, in the order each rule was first found. */
  findings: RuleFindings[];
  /** Blocks left open or abandoned, and a pause on frontend tools in the last leg: the end status's block facts. */
  blockFacts: Pick<EndFacts, 'openBlocks' | 'abandonedBlocks' | 'awaitingTools' | 'awaiting'>;
}

export interface CountingSession {
  startLeg(options?: Parameters<SessionDecoder['startLeg']>[0]): LegDecoder;
  /** No more legs: the reconstructor reports what stayed open; returns the counts. */
  finish(): CountedSession;
  /** Envelopes decoded so far (a long recording's progress). */
  envelopeCount(): number;
}

/**
 * Drops what a closed block holds that grows with the stream: its content, its segments,
 * citations and images, and its envelope list but the first (where findings about the block
 * point). The reconstructor reads nothing else of a closed block (status, kind, ids, links,
 * pending tools and byte span stay), and the inline stage skips a closed block that has
 * segments, so an empty list keeps it from parsing the block again.
 */
export function releaseClosedBlock(block: Block): void {
  block.content = '';
  if (block.envelopes.length > 1) block.envelopes = block.envelopes.slice(0, 1);
  if (block.citations.length > 0) block.citations = [];
  if (block.images.length > 0) block.images = [];
  if (block.segments) block.segments = [];
}

export function createCountingSession(options: SessionDecoderOptions = {}): CountingSession {
  const envelopeTypes: Record<string, number> = {};
  const severities = zeroSeverityCounts();
  const findings = new Map<Diagnostic['rule'], RuleFindings>();
  const legs: LegEnd[] = [];
  let envelopes = 0;
  /**
   * Blocks that closed while the current envelope was decoded. They are released when the
   * next envelope arrives: until the envelope that closed a block is through, the
   * reconstructor and the inline stage may still read its content (a replay's report quotes
   * the length of the attempt it abandoned).
   */
  let closed: Block[] = [];
  /** The end status's block facts the decoder no longer holds: abandoned blocks, and the legs paused on frontend tools. */
  const abandoned = new Map<number, string>();
  const pausedLegs = new Map<number, Awaited>();

  const decoder = createSessionDecoder(
    {
      onEnvelope(envelope) {
        for (const block of closed) releaseClosedBlock(block);
        closed = [];
        envelopes++;
        envelopeTypes[envelope.type] = (envelopeTypes[envelope.type] ?? 0) + 1;
      },
      onBlock(block) {
        if (block.status === 'open') return;
        closed.push(block);
        if (block.status === 'abandoned') abandoned.set(block.id, block.kind);
        else if (awaitsClient(block)) pausedLegs.set(block.leg, awaitedBy(block));
      },
      onDiagnostic(diagnostic) {
        severities[diagnostic.severity]++;
        const entry = findings.get(diagnostic.rule);
        if (!entry) {
          findings.set(diagnostic.rule, {
            rule: diagnostic.rule,
            severity: diagnostic.severity,
            count: 1,
            examples: [diagnostic],
          });
          return;
        }
        entry.count++;
        if (entry.examples.length < FINDING_EXAMPLES) entry.examples.push(diagnostic);
      },
    },
    // Nothing it serves shows chunk statistics (they are counted when a view asks, from a session store).
    { ...options, retention: 'open', statistics: false },
  );

  return {
    envelopeCount: () => envelopes,
    startLeg(options) {
      const leg = decoder.startLeg(options);
      return {
        leg: leg.leg,
        hint: (hints) => leg.hint(hints),
        framing: () => leg.framing(),
        push: (chunk, receivedAt) => leg.push(chunk, receivedAt),
        end() {
          const end = leg.end();
          legs.push(end);
          return end;
        },
      };
    },
    finish() {
      decoder.finish();
      const openBlocks = decoder
        .blocks()
        .filter((block) => block.status === 'open')
        .map(({ id, kind }) => ({ id, kind }));
      const abandonedBlocks = [...abandoned].sort(([a], [b]) => a - b).map(([id, kind]) => ({ id, kind }));
      const counts = decoder.counts();
      return {
        legs,
        frames: legs.reduce((sum, leg) => sum + leg.stream.frames, 0),
        envelopes,
        envelopeTypes,
        blocks: counts.blocks,
        agents: counts.agents,
        severities: { ...severities },
        findings: [...findings.values()],
        blockFacts: { openBlocks, abandonedBlocks, ...pauseFacts(pausedLegs, legs.length - 1) },
      };
    },
  };
}
