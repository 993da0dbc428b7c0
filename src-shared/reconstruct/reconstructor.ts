import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticLocation, DiagnosticSink } from '../diagnostics/types';
import { DIALECT_REGISTRY, type DialectRegistry } from '../dialects/registry';
import type { Envelope } from '../envelope/types';
import { ERROR_FRAME_KIND, isStreamedKind, isToolResultKind } from '../envelope/kinds';
import { KIND } from '../envelope/vocabulary';
import { createAttachments } from './attachments';
import { createBlockClose } from './block-close';
import { createReplayDetector, type ReplayDetector } from './replay-detector';
import { DeltaLane } from './delta-lane';
import type { AgentInfo, Block } from './types';
import { appendContent } from './block-content';
import { addEnvelope, createBlock } from './new-block';
import { createBlockHold, type Retention } from './retention';
import { createAgents, openBlockOf, type AgentState, type OpenBlock, type ReplayPoint } from './agents';
import { createToolLinks } from './tool-links';
import { agentLabel, blockAt, describeBlock, envelopeAt, replayAt, stringExtra } from './locations';

export interface ReconstructorCallbacks {
  /**
   * A block opened or changed (delta, citation, image, close, abandonment, link). The block
   * is the reconstructor's live object: read it, do not mutate it; copy it to keep a snapshot.
   */
  onBlock?: (block: Block) => void;
  /** An agent was first seen, or its meta_init completed. Live object, as for onBlock. */
  onAgent?: (agent: AgentInfo) => void;
  onDiagnostic?: DiagnosticSink;
}

export interface ReconstructorOptions {
  /** The dialects the envelopes were decoded with, for what they say of their blocks; the built-in registry by default. */
  dialects?: DialectRegistry;
  /** What is kept of closed blocks and idle agents (retention.ts); default `all`. */
  retention?: Retention;
  /** Characters of a block's content held in memory (default MAX_BLOCK_CHARS; tests lower it). */
  maxBlockChars?: number;
  /**
   * The consumer drops a closed block's text at once and reads it back from elsewhere (the
   * session store rebuilds it from the deltas on its spool file): no flat copy is made of a
   * text it would drop. Default false.
   */
  releasesClosedText?: boolean;
}

/**
 * Characters of one block's content held in memory: 64 Mi, far past any real block and far
 * below V8's longest string (about 512 Mi characters), which a single endless block reached
 * and took the whole decode down with ("Invalid string length"). Past it the block keeps its
 * first characters and counts the rest (block.content-capped); the bytes stay in the stream.
 */
export const MAX_BLOCK_CHARS = 64 * 1024 * 1024;

/** Where a replay that `envelope` may begin would split `block` (ReplayDetector.observe's mark). */
function replayPoint(block: Block, envelope: Envelope): ReplayPoint {
  return {
    contentLength: block.content.length,
    envelopeCount: block.envelopes.length,
    byteStart: envelope.byteStart,
    byteEnd: block.byteEnd,
  };
}

/** A block's length in characters, the ones past the cap included. */
export function contentLength(block: Block): number {
  return block.content.length + (block.omittedChars ?? 0);
}

export interface Reconstructor {
  /** `payload`: the envelope's delta already parsed as JSON by its dialect, if it was (see DialectCallbacks). */
  push(envelope: Envelope, payload?: unknown): void;
  /** No more envelopes in the session: report blocks left open and calls without results. */
  end(): void;
  /** The blocks held (all of them, unless retention is `open`), in id order. */
  blocks(): readonly Block[];
  /** The agents held (all of them, unless retention is `open`). */
  agents(): readonly AgentInfo[];
  /** Blocks and agents seen, held or not (an agent let go that comes back counts again). */
  counts(): { blocks: number; agents: number };
  /** The first agent seen that has no parent (the one the session's request started). */
  rootAgent(): string | undefined;
}

/**
 * Envelopes → blocks per agent, following docs/protocols/json-envelopes.md "Frontend Handling": one open block per
 * (agent, type), deltas appended in arrival order, `final` closes. One reconstructor spans
 * every leg of a session, so tool calls link to results that arrive in a continuation.
 */
export function createReconstructor(
  callbacks: ReconstructorCallbacks = {},
  options: ReconstructorOptions = {},
): Reconstructor {
  const retention = options.retention ?? 'all';
  const maxBlockChars = options.maxBlockChars ?? MAX_BLOCK_CHARS;
  const dialects = options.dialects ?? DIALECT_REGISTRY;
  /** Dialects whose blocks have no start event (DialectModule.blocksWithoutStart). */
  const startless = new Set<string>(dialects.modules.filter((m) => m.blocksWithoutStart).map((m) => m.id));
  const blocks = createBlockHold(retention);
  const agents = createAgents(retention, (agent) => callbacks.onAgent?.(agent));
  let ended = false;
  /**
   * The id of the session's last error block (an API's error or an error frame), kept as it
   * starts: a retention that lets settled blocks go has none of them in the list at the end.
   */
  let lastError = -1;
  const lane = new DeltaLane();

  const letsGo = retention !== 'all';
  const changed = (block: Block): void => {
    callbacks.onBlock?.(block);
    // Only `open` retention lets settled blocks go: `all` skips the call on every delta.
    if (letsGo && blocks.settle(block)) toolLinks.letGo(block);
  };
  const toolLinks = createToolLinks(retention, report, changed);
  const { attachCitation, attachImage } = createAttachments({ newBlock, changed, report });
  const { close, closeUnfinalised, abandon } = createBlockClose({
    agents,
    toolLinks,
    report,
    changed,
    flattensClosedText: !letsGo && options.releasesClosedText !== true,
  });

  function report(rule: RuleId, message: string, at: DiagnosticLocation): void {
    callbacks.onDiagnostic?.({ rule, message, at });
  }

  /** `agent`: the agent's id as its state holds it (blocks share it), when the caller has the state. */
  function newBlock(envelope: Envelope, kind: string, agent?: string): Block {
    const block = createBlock(blocks.made, envelope, kind, agent);
    blocks.add(block);
    if (kind === KIND.error || kind === ERROR_FRAME_KIND) lastError = block.id;
    return block;
  }

  function startBlock(state: AgentState, envelope: Envelope, kind: string): OpenBlock {
    const block = newBlock(envelope, kind, state.info.uuid);
    const open: OpenBlock = isStreamedKind(kind) ? { block, replay: createReplayDetector<ReplayPoint>() } : { block };
    state.open.set(kind, open);
    if (kind === KIND.text) state.lastText = block;
    toolLinks.addCall(block);
    if (isToolResultKind(kind)) toolLinks.linkResult(block, envelope);
    return open;
  }

  function push(envelope: Envelope, payload: unknown): void {
    const laneBlock = lane.take(envelope);
    if (laneBlock !== undefined) {
      appendStreamed(laneBlock.state, laneBlock.open, laneBlock.replay, envelope);
      return;
    }
    if (envelope.control) {
      pushControl(envelope);
      return;
    }
    const state = agents.stateOf(envelope);
    if (envelope.type === KIND.meta_init) checkMetaInitFirst(state, envelope);
    else state.contentLeg = envelope.leg;

    if (envelope.type === KIND.citation) attachCitation(state, envelope);
    else if (envelope.type === KIND.tool_result_image) attachImage(state, envelope);
    else accumulate(state, envelope, payload);
  }

  function pushControl(envelope: Envelope): void {
    if (envelope.control === 'error-frame') {
      // The router's error frame ends the response: shown as a block so the blocks view has it.
      const block = newBlock(envelope, ERROR_FRAME_KIND);
      block.content = envelope.delta;
      block.parsed = { ...envelope.extras, message: envelope.delta };
      block.status = 'complete';
      addEnvelope(block, envelope);
      changed(block);
    } else if (envelope.control === 'block-open') {
      openEmpty(envelope);
    } else if (envelope.control === 'provider-event') {
      toolLinks.checkPreliminary(envelope);
    }
    // done, provider-event, undecoded and event carry no content; the timeline shows them.
  }

  /** An explicit open (an XML start tag): the block exists, empty, before its first delta. */
  function openEmpty(envelope: Envelope): void {
    const state = agents.stateOf(envelope);
    state.contentLeg = envelope.leg;
    const kind = envelope.type;
    const previous = openBlockOf(state, kind, envelope);
    if (previous) {
      // A second start tag while the first block is open: upstream only does this when a
      // retried API call replays the block.
      state.open.delete(kind);
      const next = startBlock(state, envelope, kind);
      abandon(state, previous.block, next.block);
      report(
        'block.restarted',
        `${describeBlock(previous.block)} was opened again before it closed (a retried API call replays the block from its start; in XML, concurrent sub-agents that cannot be told apart look the same); the first attempt is kept as abandoned block #${previous.block.id} and the replay is block #${next.block.id}.`,
        envelopeAt(envelope, next.block),
      );
      addEnvelope(next.block, envelope);
      changed(next.block);
      return;
    }
    const open = startBlock(state, envelope, kind);
    addEnvelope(open.block, envelope);
    changed(open.block);
  }

  function checkMetaInitFirst(state: AgentState, envelope: Envelope): void {
    const continuing = state.open.get('meta_init')?.block.leg === envelope.leg;
    if (state.contentLeg !== envelope.leg || continuing) return;
    report(
      'stream.meta-init-not-first',
      `meta_init of ${agentLabel(envelope.agent)} arrives after that agent already sent content in this response; a client that reads the format and parent from the first event misses it.`,
      envelopeAt(envelope),
    );
  }

  function accumulate(state: AgentState, envelope: Envelope, payload: unknown): void {
    const kind = envelope.type;
    let open = openBlockOf(state, kind, envelope);
    const toolId = stringExtra(envelope, 'id');
    const name = stringExtra(envelope, 'name');

    if (open && toolId !== undefined && open.block.toolId !== undefined && toolId !== open.block.toolId) {
      report(
        'block.id-changed',
        `${describeBlock(open.block)} is still open (no final envelope) when a ${kind} chunk for id ${toolId} arrives; the first payload is left unterminated and id ${toolId} starts a new block.`,
        envelopeAt(envelope, open.block),
      );
      state.open.delete(kind);
      open = undefined;
    } else if (open && name !== undefined && open.block.name !== undefined && name !== open.block.name) {
      report(
        'block.id-changed',
        `${describeBlock(open.block)} is named "${open.block.name}" but a later chunk says "${name}"; the chunk is appended and the first name kept.`,
        envelopeAt(envelope, open.block),
      );
    }

    if (open?.interruptedAt && !envelope.final) {
      closeUnfinalised(state, open, open.interruptedAt);
      open = undefined;
    }

    if (!open) {
      const last = state.lastCompleted.get(kind);
      if (startless.has(envelope.dialect)) markInterrupted(state, envelope);
      open = startBlock(state, envelope, kind);
      // A part that says it replaces the completed one (an AI SDK data part with its id) is its next version.
      if (toolId !== undefined && last?.toolId === toolId && envelope.extras['replaces'] !== true) {
        report(
          'block.content-after-final',
          `A ${kind} chunk for id ${toolId} arrives after ${describeBlock(last)} already completed with its final envelope; it is kept as a new block #${open.block.id} rather than appended to the completed payload.`,
          envelopeAt(envelope, open.block),
        );
      }
    }

    if (open.replay && envelope.delta !== '' && !envelope.final) {
      appendStreamed(state, open, open.replay, envelope);
      return;
    }

    if (envelope.final && open.replay) {
      // A replay of the whole first attempt that the final marker follows at once.
      const start = open.replay.end();
      if (start) open = splitReplay(state, open, start, envelope);
    }
    appendDelta(open.block, envelope);
    if (envelope.final) {
      if (isStreamedKind(kind) && envelope.delta !== '') {
        report(
          'block.final-with-content',
          `The final marker of ${describeBlock(open.block)} carries ${envelope.delta.length} characters of content (upstream sends an empty delta); the content is appended.`,
          envelopeAt(envelope, open.block),
        );
      }
      close(state, open.block, envelope, payload);
    }
    changed(open.block);
  }

  /** A delta of a streamed block (text, thinking): appended, unless it begins a replay of the block. */
  function appendStreamed(
    state: AgentState,
    open: OpenBlock,
    replay: ReplayDetector<ReplayPoint>,
    envelope: Envelope,
  ): void {
    const block = open.block;
    const start = replay.observe(envelope.delta, replayPoint, block, envelope);
    appendDelta(block, envelope);
    if (start) {
      splitReplay(state, open, start, envelope);
      return;
    }
    lane.follow(state, open, replay, envelope);
    changed(block);
  }

  /**
   * Some dialects' blocks have no start event (JSON envelopes): a block begins with its first
   * envelope and ends with its final one. A streamed block (text, thinking) of the agent still
   * open when a block of another type begins is marked: its final envelope may still come
   * (consumers keep one open block per (agent, type)), but if a delta of its type comes first,
   * it never got one.
   */
  function markInterrupted(state: AgentState, envelope: Envelope): void {
    for (const [kind, open] of state.open) {
      if (
        kind !== envelope.type &&
        isStreamedKind(kind) &&
        open.interruptedAt === undefined &&
        open.block.leg === envelope.leg
      ) {
        open.interruptedAt = { envelope: envelope.seq, type: envelope.type, at: envelopeAt(envelope, open.block) };
      }
    }
  }

  function appendDelta(block: Block, envelope: Envelope): void {
    if (envelope.delta !== '') {
      const omitted = appendContent(block, envelope.delta, maxBlockChars);
      if (omitted > 0) omit(block, omitted, envelope);
    }
    addEnvelope(block, envelope);
  }

  /** Characters past the cap are counted, not held; said once per block. */
  function omit(block: Block, omitted: number, envelope: Envelope): void {
    if (block.omittedChars === undefined) {
      report(
        'block.content-capped',
        `${describeBlock(block)} passed ${maxBlockChars} characters at envelope ${envelope.seq}: its first ${block.content.length} characters are held and shown; the rest is counted, not held (its bytes are in the stream, from byte ${envelope.byteStart} of leg ${envelope.leg}).`,
        envelopeAt(envelope, block),
      );
    }
    block.omittedChars = (block.omittedChars ?? 0) + omitted;
  }

  /** The open block turned out to hold a first attempt plus the start of its replay: split it; returns the replay. */
  function splitReplay(state: AgentState, open: OpenBlock, start: ReplayPoint, envelope: Envelope): OpenBlock {
    const old = open.block;
    const replay = newBlock(envelope, old.kind, old.agent);
    replay.content = old.content.slice(start.contentLength);
    replay.envelopes = old.envelopes.slice(start.envelopeCount);
    replay.byteStart = start.byteStart;
    replay.byteEnd = old.byteEnd;
    old.content = old.content.slice(0, start.contentLength);
    old.envelopes = old.envelopes.slice(0, start.envelopeCount);
    old.byteEnd = start.byteEnd;
    const next: OpenBlock = { block: replay, replay: open.replay };
    state.open.set(old.kind, next);
    abandon(state, old, replay);
    const firstReplayed = replay.envelopes[0] ?? envelope.seq;
    report(
      'block.restarted',
      `${describeBlock(old)} received its own first deltas again from envelope ${firstReplayed} on, without a final marker in between (a retried API call replays the block from its start); the first attempt (${old.content.length} characters) is kept as abandoned block #${old.id} and the replay continues as block #${replay.id}.`,
      replayAt(replay, firstReplayed, envelope),
    );
    changed(replay);
    return next;
  }

  function end(): void {
    if (ended) return;
    ended = true;
    const held = blocks.list();
    for (const block of held) {
      if (block.status === 'open') {
        report(
          'block.unterminated',
          `${describeBlock(block)} is still open at the end of the session: no final envelope after ${block.envelopes.length} envelope(s) and ${contentLength(block)} characters. It is shown as received, not closed${cutBy(block, lastError)}.`,
          blockAt(block),
        );
      }
    }
    toolLinks.reportUnanswered(held);
  }

  return {
    push(envelope, payload) {
      push(envelope, payload);
    },
    end,
    blocks: () => blocks.list(),
    agents: () => agents.list(),
    counts: () => ({ blocks: blocks.made, agents: agents.seen }),
    rootAgent: () => agents.rootAgent(),
  };
}

/**
 * What likely cut an open block short: the session's last error (an API's error or an error
 * frame, whichever agent it names: an error chunk carries no message id, the router's frame
 * speaks for the whole run), when it started after the block did.
 */
function cutBy(block: Block, lastError: number): string {
  return lastError > block.id ? `: an error (block #${lastError}) came while it was open` : '';
}
