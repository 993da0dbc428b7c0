import type { RuleId } from '../diagnostics/rules';
import type { DiagnosticLocation, DiagnosticSink } from '../diagnostics/types';
import type { Envelope } from '../envelope/types';
import { parseJsonPayload } from '../json/values';
import { ERROR_FRAME_KIND, hasJsonPayload, isStreamedKind, isToolCallKind, isToolResultKind } from '../envelope/kinds';
import { readCitation, readPendingTools } from './payloads';
import { createReplayDetector, type ReplayDetector, type ReplayMark } from './replay-detector';
import type { AgentInfo, Block, BlockStatus } from './types';
import { stringifyJson } from '../json/tree';
import { detachString } from '../text/detach';
import { appendContent, withContent } from './block-content';
import { createBlockHold, HELD_IDLE_AGENTS, HELD_LINKED_CALLS, RecentMap, type Retention } from './retention';

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
  /** What is kept of closed blocks and idle agents (retention.ts); default `all`. */
  retention?: Retention;
  /** Characters of a block's content held in memory (default MAX_BLOCK_CHARS; tests lower it). */
  maxBlockChars?: number;
}

/**
 * Characters of one block's content held in memory: 64 Mi, far past any real block and far
 * below V8's longest string (about 512 Mi characters), which a single endless block reached
 * and took the whole decode down with ("Invalid string length"). Past it the block keeps its
 * first characters and counts the rest (block.content-capped); the bytes stay in the stream.
 */
export const MAX_BLOCK_CHARS = 64 * 1024 * 1024;

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

interface ReplayPoint extends ReplayMark {
  byteStart: number;
  byteEnd: number;
}

/** A block that still accepts envelopes, with the state only an open block needs. */
interface OpenBlock {
  block: Block;
  replay?: ReplayDetector<ReplayPoint>;
  /** Where a block of another type began while this streamed block was open (JSON envelopes). */
  interruptedAt?: Interruption;
}

interface Interruption {
  envelope: number;
  type: string;
  at: DiagnosticLocation;
}

interface AgentState {
  info: AgentInfo;
  /** The open block per kind: the "(agent, type)" tracker of docs/protocols/json-envelopes.md. */
  open: Map<string, OpenBlock>;
  /** The block per kind that completed last (block.content-after-final). */
  lastCompleted: Map<string, Block>;
  /** The text block citations attach to. */
  lastText?: Block;
  /** Leg in which this agent last sent content, -1 before any (stream.meta-init-not-first). */
  contentLeg: number;
}

function stringExtra(envelope: Envelope, key: string): string | undefined {
  const value = envelope.extras[key];
  return typeof value === 'string' ? value : undefined;
}

function agentLabel(uuid: string): string {
  return uuid === '' ? 'the unattributed agent ""' : `agent ${uuid}`;
}

function describeBlock(block: Block): string {
  const tool = block.toolId !== undefined ? ` ${block.toolId}` : '';
  return `${block.kind}${tool} block #${block.id} of ${agentLabel(block.agent)}`;
}

/** `block.parsed` of a completed block whose content is valid JSON: parsed again on each read. */
function parsedContent(this: Block): unknown {
  const parsed = parseJsonPayload(this.content);
  return parsed.ok ? parsed.value : undefined;
}

/** Assigning `block.parsed` stores the value as a plain field, as on any other block. */
function setParsed(this: Block, value: unknown): void {
  Object.defineProperty(this, 'parsed', { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Make `block.parsed` parse the block's (final) content when read instead of holding the
 * value: meta_init and meta_final payloads carry whole message histories, and a session
 * would otherwise keep each of them twice, as text and as objects. Reads are rare (a block's
 * detail view, the diff).
 */
function parseOnRead(block: Block): void {
  Object.defineProperty(block, 'parsed', { get: parsedContent, set: setParsed, enumerable: true, configurable: true });
}

/**
 * Envelopes → blocks per agent, following docs/protocols/json-envelopes.md "Frontend Handling": one open block per
 * (agent, type), deltas appended in arrival order, `final` closes. One reconstructor spans
 * every leg of a session, so tool calls link to results that arrive in a continuation.
 */
export function createReconstructor(callbacks: ReconstructorCallbacks = {}, options: ReconstructorOptions = {}): Reconstructor {
  const retention = options.retention ?? 'all';
  const maxBlockChars = options.maxBlockChars ?? MAX_BLOCK_CHARS;
  const blocks = createBlockHold(retention);
  /** In `open` retention, least recently active first. */
  const agentStates = new Map<string, AgentState>();
  /** Every agent in the order first seen (`all` retention only: `open` counts them). */
  const agentList: AgentInfo[] | undefined = retention === 'all' ? [] : undefined;
  let agentsSeen = 0;
  /** The root agent (rootAgent()), once looked for; reset when it may have changed. */
  let root: { uuid: string | undefined } | undefined;
  /** Tool and server tool calls by tool-use id; the first call with an id wins. */
  const callsById = new Map<string, Block>();
  /** In `open` retention: the ids of calls let go once linked, with their block ids. */
  const linkedCalls = retention === 'open' ? new RecentMap<string, number>(HELD_LINKED_CALLS) : undefined;
  /** Tool-use ids some awaiting_frontend_tools asked the client to answer, with the leg that asked. */
  const pendingTools = new Map<string, number>();
  /** The last leg that carried content: a continuation that ran means the pause was answered. */
  let lastContentLeg = -1;
  let ended = false;

  const changed = (block: Block): void => {
    callbacks.onBlock?.(block);
    if (blocks.settle(block) && linkedCalls && block.toolId !== undefined && block.linkedBlock !== undefined && callsById.get(block.toolId) === block) {
      callsById.delete(block.toolId);
      linkedCalls.set(block.toolId, block.id);
    }
  };

  function report(rule: RuleId, message: string, at: DiagnosticLocation): void {
    callbacks.onDiagnostic?.({ rule, message, at });
  }

  function envelopeAt(envelope: Envelope, block?: Block): DiagnosticLocation {
    const at: DiagnosticLocation = { frame: envelope.frame, envelope: envelope.seq, byteStart: envelope.byteStart, byteEnd: envelope.byteEnd };
    if (envelope.leg !== 0) at.leg = envelope.leg;
    if (block) at.block = block.id;
    return at;
  }

  function blockAt(block: Block): DiagnosticLocation {
    const at: DiagnosticLocation = { byteStart: block.byteStart, byteEnd: block.byteEnd, block: block.id };
    if (block.leg !== 0) at.leg = block.leg;
    const first = block.envelopes[0];
    if (first !== undefined) at.envelope = first;
    return at;
  }

  /** The replay so far: from its first replayed envelope to the one that confirmed it. */
  function replayAt(replay: Block, firstReplayed: number, envelope: Envelope): DiagnosticLocation {
    const at: DiagnosticLocation = { envelope: firstReplayed, byteStart: replay.byteStart, byteEnd: envelope.byteEnd, block: replay.id };
    if (envelope.leg !== 0) at.leg = envelope.leg;
    return at;
  }

  let lastActive: AgentState | undefined;

  function agentState(envelope: Envelope): AgentState {
    let state = agentStates.get(envelope.agent);
    if (!state) {
      const info: AgentInfo = { uuid: detachString(envelope.agent), parent: null, firstEnvelope: envelope.seq };
      state = { info, open: new Map(), lastCompleted: new Map(), contentLeg: -1 };
      agentStates.set(envelope.agent, state);
      agentsSeen++;
      agentList?.push(info);
      if (root && root.uuid === undefined && info.uuid !== '') root = { uuid: info.uuid };
      if (retention === 'open') letIdleAgentGo();
      callbacks.onAgent?.(info);
    } else if (retention === 'open' && state !== lastActive) {
      // Most recently active last: the idle agents let go are the ones not heard from longest.
      agentStates.delete(envelope.agent);
      agentStates.set(envelope.agent, state);
    }
    lastActive = state;
    return state;
  }

  /**
   * `open` retention: past HELD_IDLE_AGENTS agents, the least recently active one without an
   * open block goes (never the root). Agents with open blocks that are passed over move to
   * the back, so each new agent looks at a few entries only.
   */
  function letIdleAgentGo(): void {
    if (agentStates.size <= HELD_IDLE_AGENTS) return;
    const keep = rootAgent();
    for (let looked = 0; looked < 8; looked++) {
      const oldest = agentStates.entries().next();
      if (oldest.done) return;
      const [uuid, state] = oldest.value;
      agentStates.delete(uuid);
      if (state.open.size === 0 && uuid !== keep) return;
      agentStates.set(uuid, state);
    }
  }

  function newBlock(envelope: Envelope, kind: string): Block {
    // Fields in the order they always had; `content` may move to a store once the block is done.
    const status: BlockStatus = 'open';
    const block: Block = Object.assign(withContent({ id: blocks.made, agent: detachString(envelope.agent), kind, status }), {
      citations: [],
      images: [],
      envelopes: [],
      leg: envelope.leg,
      byteStart: envelope.byteStart,
      byteEnd: envelope.byteEnd,
    });
    const toolId = stringExtra(envelope, 'id');
    const name = stringExtra(envelope, 'name');
    // The block outlives its envelope: its own copies, not slices that keep the frame's text alive.
    if (toolId !== undefined) block.toolId = detachString(toolId);
    if (name !== undefined) block.name = detachString(name);
    blocks.add(block);
    return block;
  }

  /** Record that `envelope` contributed to `block`; offsets of another leg do not widen the span. */
  function addEnvelope(block: Block, envelope: Envelope): void {
    block.envelopes.push(envelope.seq);
    if (envelope.leg !== block.leg) return;
    if (envelope.byteStart < block.byteStart) block.byteStart = envelope.byteStart;
    if (envelope.byteEnd > block.byteEnd) block.byteEnd = envelope.byteEnd;
  }

  /** The open block of `kind`, if it belongs to the envelope's leg: a new response never continues an old one. */
  function openBlockOf(state: AgentState, kind: string, envelope: Envelope): OpenBlock | undefined {
    const open = state.open.get(kind);
    if (open && open.block.leg !== envelope.leg) {
      // Left open by its own leg; it stays 'open' and end() reports it.
      state.open.delete(kind);
      return undefined;
    }
    return open;
  }

  function startBlock(state: AgentState, envelope: Envelope, kind: string): OpenBlock {
    const block = newBlock(envelope, kind);
    const open: OpenBlock = isStreamedKind(kind) ? { block, replay: createReplayDetector<ReplayPoint>() } : { block };
    state.open.set(kind, open);
    if (kind === 'text') state.lastText = block;
    if (isToolCallKind(kind) && block.toolId !== undefined && !callsById.has(block.toolId) && !linkedCalls?.has(block.toolId)) callsById.set(block.toolId, block);
    if (isToolResultKind(kind)) linkResult(block, envelope);
    return open;
  }

  function linkResult(result: Block, envelope: Envelope): void {
    const call = result.toolId !== undefined ? callsById.get(result.toolId) : undefined;
    const callId = call?.id ?? (result.toolId !== undefined ? linkedCalls?.get(result.toolId) : undefined);
    if (callId === undefined) {
      const why = result.toolId === undefined ? 'carries no id' : `has id ${result.toolId}, which no tool call of this session had`;
      report('tool.result-without-call', `${result.kind} "${result.name ?? ''}" of ${agentLabel(result.agent)} ${why}; it is shown unlinked.`, envelopeAt(envelope, result));
      return;
    }
    result.linkedBlock = callId;
    if (call && call.linkedBlock === undefined) {
      call.linkedBlock = result.id;
      changed(call);
    }
  }

  function push(envelope: Envelope, payload: unknown): void {
    if (envelope.control) {
      pushControl(envelope);
      return;
    }
    const state = agentState(envelope);
    if (envelope.leg > lastContentLeg) lastContentLeg = envelope.leg;
    if (envelope.type === 'meta_init') checkMetaInitFirst(state, envelope);
    else state.contentLeg = envelope.leg;

    if (envelope.type === 'citation') attachCitation(state, envelope);
    else if (envelope.type === 'tool_result_image') attachImage(state, envelope);
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
    }
    // done, provider-event and undecoded carry no content; the timeline shows them.
  }

  /** An explicit open (an XML start tag): the block exists, empty, before its first delta. */
  function openEmpty(envelope: Envelope): void {
    const state = agentState(envelope);
    state.contentLeg = envelope.leg;
    const kind = envelope.type;
    const previous = openBlockOf(state, kind, envelope);
    if (previous) {
      // A second start tag while the first block is open: upstream only does this when a
      // retried API call replays the block.
      state.open.delete(kind);
      const next = startBlock(state, envelope, kind);
      abandon(state, previous.block, next.block);
      report('block.restarted', `${describeBlock(previous.block)} was opened again before it closed (a retried API call replays the block from its start; in XML, concurrent sub-agents that cannot be told apart look the same); the first attempt is kept as abandoned block #${previous.block.id} and the replay is block #${next.block.id}.`, envelopeAt(envelope, next.block));
      addEnvelope(next.block, envelope);
      changed(next.block);
      return;
    }
    const open = startBlock(state, envelope, kind);
    addEnvelope(open.block, envelope);
    changed(open.block);
  }

  function abandon(state: AgentState, old: Block, replay: Block): void {
    old.status = 'abandoned';
    old.replacedBy = replay.id;
    replay.replaces = old.id;
    if (state.lastText === old) state.lastText = replay;
    changed(old);
  }

  function checkMetaInitFirst(state: AgentState, envelope: Envelope): void {
    const continuing = state.open.get('meta_init')?.block.leg === envelope.leg;
    if (state.contentLeg !== envelope.leg || continuing) return;
    report('stream.meta-init-not-first', `meta_init of ${agentLabel(envelope.agent)} arrives after that agent already sent content in this response; a client that reads the format and parent from the first event misses it.`, envelopeAt(envelope));
  }

  function accumulate(state: AgentState, envelope: Envelope, payload: unknown): void {
    const kind = envelope.type;
    let open = openBlockOf(state, kind, envelope);
    const toolId = stringExtra(envelope, 'id');
    const name = stringExtra(envelope, 'name');

    if (open && toolId !== undefined && open.block.toolId !== undefined && toolId !== open.block.toolId) {
      report('block.id-changed', `${describeBlock(open.block)} is still open (no final envelope) when a ${kind} chunk for id ${toolId} arrives; the first payload is left unterminated and id ${toolId} starts a new block.`, envelopeAt(envelope, open.block));
      state.open.delete(kind);
      open = undefined;
    } else if (open && name !== undefined && open.block.name !== undefined && name !== open.block.name) {
      report('block.id-changed', `${describeBlock(open.block)} is named "${open.block.name}" but a later chunk says "${name}"; the chunk is appended and the first name kept.`, envelopeAt(envelope, open.block));
    }

    if (open?.interruptedAt && !envelope.final) {
      closeUnfinalised(state, open, open.interruptedAt);
      open = undefined;
    }

    if (!open) {
      const last = state.lastCompleted.get(kind);
      if (envelope.dialect === 'json') markInterrupted(state, envelope);
      open = startBlock(state, envelope, kind);
      if (toolId !== undefined && last?.toolId === toolId) {
        report('block.content-after-final', `A ${kind} chunk for id ${toolId} arrives after ${describeBlock(last)} already completed with its final envelope; it is kept as a new block #${open.block.id} rather than appended to the completed payload.`, envelopeAt(envelope, open.block));
      }
    }

    if (open.replay && envelope.delta !== '' && !envelope.final) {
      const block = open.block;
      const start = open.replay.observe(envelope.delta, () => ({ contentLength: block.content.length, envelopeCount: block.envelopes.length, byteStart: envelope.byteStart, byteEnd: block.byteEnd }));
      appendDelta(block, envelope);
      if (start) splitReplay(state, open, start, envelope);
      else changed(block);
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
        report('block.final-with-content', `The final marker of ${describeBlock(open.block)} carries ${envelope.delta.length} characters of content (upstream sends an empty delta); the content is appended.`, envelopeAt(envelope, open.block));
      }
      close(state, open.block, envelope, payload);
    }
    changed(open.block);
  }

  /**
   * JSON envelopes have no start event: a block begins with its first envelope and ends with
   * its final one. A streamed block (text, thinking) of the agent still open when a block of
   * another type begins is marked: its final envelope may still come (consumers keep one open
   * block per (agent, type)), but if a delta of its type comes first, it never got one.
   */
  function markInterrupted(state: AgentState, envelope: Envelope): void {
    for (const [kind, open] of state.open) {
      if (kind !== envelope.type && isStreamedKind(kind) && open.interruptedAt === undefined && open.block.leg === envelope.leg) {
        open.interruptedAt = { envelope: envelope.seq, type: envelope.type, at: envelopeAt(envelope, open.block) };
      }
    }
  }

  /**
   * A delta for a streamed block that a block of another type interrupted: the block never
   * got its final envelope, and appending would merge two blocks' text. It is closed where the
   * other block began, and said so; the delta starts a block of its own.
   */
  function closeUnfinalised(state: AgentState, open: OpenBlock, interrupted: Interruption): void {
    const block = open.block;
    report('block.not-finalised', `${describeBlock(block)} got no final envelope before a ${interrupted.type} block began at envelope ${interrupted.envelope}; it is closed there (${block.content.length} characters), and the ${block.kind} that follows is a block of its own, not merged into it.`, interrupted.at);
    block.status = 'complete';
    state.open.delete(block.kind);
    state.lastCompleted.set(block.kind, block);
    changed(block);
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
      report('block.content-capped', `${describeBlock(block)} passed ${maxBlockChars} characters at envelope ${envelope.seq}: its first ${block.content.length} characters are held and shown; the rest is counted, not held (its bytes are in the stream, from byte ${envelope.byteStart} of leg ${envelope.leg}).`, envelopeAt(envelope, block));
    }
    block.omittedChars = (block.omittedChars ?? 0) + omitted;
  }

  /** The open block turned out to hold a first attempt plus the start of its replay: split it; returns the replay. */
  function splitReplay(state: AgentState, open: OpenBlock, start: ReplayPoint, envelope: Envelope): OpenBlock {
    const old = open.block;
    const replay = newBlock(envelope, old.kind);
    replay.content = old.content.slice(start.contentLength);
    replay.envelopes = old.envelopes.slice(start.envelopeCount);
    replay.byteStart = start.byteStart;
    replay.byteEnd = old.byteEnd;
    old.content = old.content.slice(0, start.contentLength);
    old.envelopes.length = start.envelopeCount;
    old.byteEnd = start.byteEnd;
    const next: OpenBlock = { block: replay, replay: open.replay };
    state.open.set(old.kind, next);
    abandon(state, old, replay);
    const firstReplayed = replay.envelopes[0] ?? envelope.seq;
    report('block.restarted', `${describeBlock(old)} received its own first deltas again from envelope ${firstReplayed} on, without a final marker in between (a retried API call replays the block from its start); the first attempt (${old.content.length} characters) is kept as abandoned block #${old.id} and the replay continues as block #${replay.id}.`, replayAt(replay, firstReplayed, envelope));
    changed(replay);
    return next;
  }

  /** `payload`: the closing envelope's delta as its dialect parsed it, if it did. */
  function close(state: AgentState, block: Block, envelope: Envelope, payload: unknown): void {
    block.status = 'complete';
    state.open.delete(block.kind);
    state.lastCompleted.set(block.kind, block);
    // A payload cut at the cap cannot parse; block.content-capped said why.
    if (!hasJsonPayload(block.kind) || block.omittedChars !== undefined) return;
    // A payload of this one envelope is its delta, which the dialect already parsed.
    let value = block.envelopes.length === 1 ? payload : undefined;
    if (value === undefined) {
      const parsed = parseJsonPayload(block.content);
      if (!parsed.ok) {
        block.parseError = parsed.error;
        report('envelope.payload-json', `The ${block.kind} payload of ${agentLabel(block.agent)}, reassembled from ${block.envelopes.length} envelope(s) (${block.content.length} characters), is not valid JSON: ${parsed.error}.`, envelopeAt(envelope, block));
        return;
      }
      value = parsed.value;
    }
    parseOnRead(block);
    if (block.kind === 'awaiting_frontend_tools') readAwaiting(block, value, envelope);
    else if (block.kind === 'meta_init') applyMetaInit(state, block, value);
  }

  function readAwaiting(block: Block, payload: unknown, envelope: Envelope): void {
    const tools = readPendingTools(payload);
    if (!tools.ok) {
      block.parseError = tools.error;
      report('envelope.payload-json', `The awaiting_frontend_tools payload of ${agentLabel(block.agent)} parses but has the wrong shape: ${tools.error}.`, envelopeAt(envelope, block));
      return;
    }
    block.pendingTools = tools.value;
    for (const tool of tools.value) pendingTools.set(tool.toolUseId, envelope.leg);
  }

  function applyMetaInit(state: AgentState, block: Block, meta: unknown): void {
    if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return;
    const fields = meta as Record<string, unknown>;
    const info = state.info;
    const before = [info.parent, info.model, info.format, info.userQuery, info.metaInitEnvelope];
    const parent = fields['parent_agent_uuid'];
    // Upstream writes "unknown" when a sub-agent's parent was never set.
    if (typeof parent === 'string' && parent !== '' && parent !== 'unknown' && parent !== info.uuid) {
      info.parent = parent;
      if (root?.uuid === info.uuid) root = undefined;
    }
    if (typeof fields['model'] === 'string') info.model = fields['model'];
    if (typeof fields['format'] === 'string') info.format = fields['format'];
    const query = fields['user_query'];
    if (query !== undefined) info.userQuery = typeof query === 'string' ? query : (stringifyJson(query) ?? '');
    info.metaInitEnvelope ??= block.envelopes[0];
    // A run that announces its agents again unchanged (every leg of a long recording) is not news.
    const after = [info.parent, info.model, info.format, info.userQuery, info.metaInitEnvelope];
    if (after.some((value, i) => value !== before[i])) callbacks.onAgent?.(info);
  }

  function attachCitation(state: AgentState, envelope: Envelope): void {
    const { citation, problem } = readCitation(envelope);
    const target = state.lastText;
    if (problem) report('envelope.payload-json', `Citation of ${agentLabel(envelope.agent)}: ${problem}.`, envelopeAt(envelope, target));
    if (target) {
      target.citations.push(citation);
      addEnvelope(target, envelope);
      changed(target);
      return;
    }
    const block = newBlock(envelope, 'citation');
    block.content = citation.citedText;
    block.citations.push(citation);
    block.status = 'complete';
    addEnvelope(block, envelope);
    report('citation.orphan', `Citation "${citation.citedText.slice(0, 60)}" of ${agentLabel(envelope.agent)} arrives before any text block of that agent, so there is nothing to attach it to; it is kept as its own block #${block.id}.`, envelopeAt(envelope, block));
    changed(block);
  }

  function attachImage(state: AgentState, envelope: Envelope): void {
    const image = { src: stringExtra(envelope, 'src') ?? '', mediaType: stringExtra(envelope, 'media_type') ?? '', envelope: envelope.seq };
    const toolId = stringExtra(envelope, 'id');
    const open = openBlockOf(state, 'tool_result', envelope);
    const matches = open !== undefined && (toolId === undefined || open.block.toolId === undefined || open.block.toolId === toolId);
    if (open && matches) {
      open.block.images.push(image);
      addEnvelope(open.block, envelope);
      changed(open.block);
      return;
    }
    // Kept as a block of its own, complete: the image has nowhere else to go.
    const block = newBlock(envelope, 'tool_result_image');
    block.images.push(image);
    block.status = 'complete';
    addEnvelope(block, envelope);
    const why = open ? `the open tool_result is for id ${open.block.toolId ?? '(none)'}, not ${toolId ?? '(none)'}` : 'no tool_result of that agent is open';
    report('tool-result-image.orphan', `tool_result_image ${image.src} of ${agentLabel(envelope.agent)} cannot attach to a tool result: ${why}; it is kept as its own block #${block.id}.`, envelopeAt(envelope, block));
    changed(block);
  }

  function end(): void {
    if (ended) return;
    ended = true;
    const held = blocks.list();
    for (const block of held) {
      if (block.status === 'open') {
        report('block.unterminated', `${describeBlock(block)} is still open at the end of the session: no final envelope after ${block.envelopes.length} envelope(s) and ${contentLength(block)} characters. It is shown as received, not closed.`, blockAt(block));
      }
    }
    for (const block of held) {
      if (!isToolCallKind(block.kind) || block.linkedBlock !== undefined) continue;
      const pausedIn = block.toolId !== undefined ? pendingTools.get(block.toolId) : undefined;
      // The server only continues a paused run once it has the results; agent_base then
      // streams no tool_result for them, so a continuation that ran is the answer.
      if (pausedIn !== undefined && lastContentLeg > pausedIn) continue;
      report('tool.call-without-result', `${describeBlock(block)} ("${block.name ?? ''}") got no result in this session${callContext(block, pausedIn)}.`, blockAt(block));
    }
  }

  function callContext(call: Block, pausedIn: number | undefined): string {
    if (pausedIn !== undefined) return ': the run paused for it (awaiting_frontend_tools) and no continuation of the session ran';
    if (call.kind === 'server_tool_call') return ': server_tool_result is only streamed when the server streams tool results (never for sub-agents)';
    return '';
  }

  return {
    push(envelope, payload) {
      push(envelope, payload);
    },
    end,
    blocks: () => blocks.list(),
    agents: () => agentList ?? [...agentStates.values()].map((state) => state.info).sort((a, b) => a.firstEnvelope - b.firstEnvelope),
    counts: () => ({ blocks: blocks.made, agents: agentsSeen }),
    rootAgent,
  };

  /** The first agent seen that has no parent, among those held (the root is never let go). */
  function rootAgent(): string | undefined {
    if (!root) {
      let first: AgentInfo | undefined;
      for (const { info } of agentStates.values()) {
        if (info.parent === null && info.uuid !== '' && (!first || info.firstEnvelope < first.firstEnvelope)) first = info;
      }
      root = { uuid: first?.uuid };
    }
    return root.uuid;
  }
}
