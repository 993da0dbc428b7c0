import {
  createSessionDecoder,
  type SessionDecoder,
  type SessionDecoderOptions,
} from '../../../../src-shared/pipeline/session-decoder';
import type { AgentInfo } from '../../../../src-shared/reconstruct/types';
import type { BatchTracker } from './batch-tracker';
import type { BlockIndex } from './block-index';
import type { EnvelopeTable } from './envelope-table';
import type { FindingBadges } from './finding-badges';
import type { LegState } from './leg-state';

/** The parts of the store the decoder writes to. */
export interface DecodedInto {
  readonly legs: readonly LegState[];
  readonly envelopes: EnvelopeTable;
  readonly blocks: BlockIndex;
  readonly agents: Map<string, AgentInfo>;
  readonly findings: FindingBadges;
  readonly batch: BatchTracker;
}

/**
 * The session decoder wired to the store: its callbacks are the only writers of the store's
 * indexes (frames, envelopes, blocks, agents, findings) and of the batch marks, and each
 * change is reported to `changed` (the store's onChange).
 */
export function decoderInto(into: DecodedInto, changed: () => void, options: SessionDecoderOptions): SessionDecoder {
  const { legs, envelopes, blocks, agents, findings, batch } = into;
  return createSessionDecoder(
    {
      onFrame(frame, leg) {
        const state = legs[leg];
        if (!state) return;
        state.frames.add(frame);
      },
      onEnvelope(envelope) {
        envelopes.add(envelope);
        const state = legs[envelope.leg];
        state?.frames.noteEnvelope(envelope.frame, envelope.seq);
        if (state && !envelope.control) state.contentEnvelopes += 1;
        changed();
      },
      onBlock(block) {
        blocks.note(block);
        changed();
      },
      onAgent(agent) {
        agents.set(agent.uuid, agent);
        batch.touchAgent(agent.uuid);
        changed();
      },
      onDiagnostic(diagnostic) {
        findings.add(diagnostic);
        changed();
      },
      // Known while the leg streams, so the header says what it is decoded as before it ends.
      onDialect(leg, format, detection) {
        const state = legs[leg];
        if (!state) return;
        state.format = format;
        state.detection = detection;
        changed();
      },
    },
    options,
  );
}

/** A chunk's changes to the store reported once (see `chunkChanges`). */
export interface ChunkChanges {
  /** A change to the store: reported at once, or at the end of the chunk being decoded. */
  readonly changed: () => void;
  /** Decodes a chunk (`run`); what it changed is reported once when it is done, thrown or not. */
  readonly decoding: (run: () => void) => void;
}

/**
 * The store's changes while a chunk decodes, reported once when it is decoded: a chunk of a
 * delta-heavy stream changes hundreds of envelopes and blocks, and each report costs the
 * registry a clock read and two map lookups (3 % of a 100 MB open, docs/performance.md). A
 * batch follows either way; changes outside a chunk (a leg's end, the finish) go at once.
 */
export function chunkChanges(notify: () => void): ChunkChanges {
  let inChunk = false;
  let changedInChunk = false;
  return {
    changed() {
      if (inChunk) changedInChunk = true;
      else notify();
    },
    decoding(run) {
      if (inChunk) return run();
      inChunk = true;
      try {
        run();
      } finally {
        inChunk = false;
        if (changedInChunk) {
          changedInChunk = false;
          notify();
        }
      }
    },
  };
}
