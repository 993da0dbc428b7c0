/**
 * How a session ended, said plainly: the one status the header, the sidebar, `inspect` and
 * `record` show. A stream is only "done" when its terminal event arrived and nothing was left
 * open; anything else names what went wrong (docs/diagnostics.md, "End status").
 */
import type { Block } from '../reconstruct/types';
import { countOf } from '../text/count';
import { awaitsClient } from '../reconstruct/payloads';

/**
 * What ended one leg's stream, as the decoder saw it. `[DONE]` is recognised by the pipeline;
 * a dialect whose stream has its own terminal event (Anthropic Messages `message_stop`,
 * OpenAI Responses `response.completed` / `response.failed`) reports it through
 * `DialectCallbacks.onStreamEnd`.
 */
export interface StreamEnd {
  /** The terminal event, when one arrived: `[DONE]`, `message_stop`, `response.completed`… */
  terminal: { event: string; frame: number } | null;
  /** The error that ended the stream: an error frame, an error envelope, a dialect's failure event. */
  error: { message: string; frame: number } | null;
  /**
   * What cut the model's output short in a stream that otherwise ended as its protocol says
   * (a token limit, a content filter, a refusal), and in which event; absent when nothing did.
   */
  incomplete?: { message: string; frame: number };
  /** The bytes stopped inside an event, which was never dispatched. */
  cutMidEvent: boolean;
  /** Events dispatched on the leg. */
  frames: number;
  /** What ends a stream of the leg's dialect (`data: [DONE]`, `message_stop`…), when one is known. */
  awaited?: string;
  /**
   * The status says only how the transport ended, "ended" or "cut off": `unclaimed`, the leg's
   * dialect claims no terminal event (the generic fallback) or no dialect was known at all;
   * `protocol`, its dialect found that this stream has none in its protocol (an MCP GET stream
   * of server messages, which ends when the server closes it).
   */
  transportOnly?: 'unclaimed' | 'protocol';
}

/**
 * The end statuses (docs/diagnostics.md, "End status"): what the badge says and, for a stream
 * that did not end as its protocol says a finished run ends (and so fails `--fail-on end`),
 * how that failure reads ("the stream …"); null for the others.
 */
export const END_STATUSES = {
  done: { label: 'done', fails: null },
  error: { label: 'ended by error', fails: 'ended with an error' },
  incomplete: { label: 'incomplete', fails: 'ended incomplete (its output was cut short)' },
  truncated: { label: 'truncated', fails: 'is truncated' },
  stopped: { label: 'stopped', fails: null },
  failed: { label: 'failed', fails: 'failed' },
  paused: { label: 'awaiting tools', fails: null },
  ended: { label: 'ended', fails: null },
  cut: { label: 'cut off', fails: 'was cut off' },
} as const satisfies Record<string, { label: string; fails: string | null }>;

export type EndStatusKind = keyof typeof END_STATUSES;

export const END_STATUS_KINDS = Object.keys(END_STATUSES) as readonly EndStatusKind[];

export interface EndStatus {
  kind: EndStatusKind;
  /** What the status badge says: "done", "ended by error", "truncated"… */
  label: string;
  /** One sentence: why (the error's message, where the stream was cut, which block stayed open). */
  reason: string;
}

/** Statuses that mean the stream did not end as its protocol says a finished run ends. */
export function isBadEnd(kind: EndStatusKind): boolean {
  return END_STATUSES[kind].fails !== null;
}

export interface EndFacts {
  /** The last leg's end (where the session stands); null when no leg received a byte. */
  stream: StreamEnd | null;
  /** Blocks still open at the end, and blocks abandoned without a final marker. */
  openBlocks: readonly { id: number; kind: string }[];
  abandonedBlocks: readonly { id: number; kind: string }[];
  /** The run paused on awaiting_frontend_tools and waits for results. */
  awaitingTools: boolean;
  /**
   * What that pause waits for, when its block says (blockEndFacts): tool results, approvals
   * (the AI SDK's, MCP's), both, or its turn to be continued (Anthropic's `pause_turn`, no call
   * to answer). Absent: tool results.
   */
  awaiting?: Awaited;
  /**
   * That pause was answered (its tool results were sent) and nothing of a continuation
   * followed: the session is not waiting any more, nor is it done.
   */
  answered?: boolean;
  /** Part of the stream was lost (a hole or a damaged line in a file, bytes past a response's length): what, in one phrase. Lost data is never done. */
  lostData?: string;
  /**
   * How the source ended, when not on its own: the user stopped it, it failed (a connection
   * that broke or never opened), or its bytes were cut (a recording that stops inside a leg).
   */
  outcome?: { kind: 'stopped'; by?: StopCause } | { kind: 'failed' | 'cut'; message: string };
}

export type Awaited = 'results' | 'approvals' | 'answers' | 'turn';

/** The paused status by what the pause waits for: a paused turn is no wait for tools. */
const PAUSED: Readonly<Record<Awaited, { label: string; waits: string; sent: string }>> = {
  results: { label: END_STATUSES.paused.label, waits: 'waits for tool results', sent: 'its tool results were sent' },
  approvals: { label: 'awaiting approval', waits: 'waits for approvals', sent: 'its approvals were sent' },
  answers: {
    label: END_STATUSES.paused.label,
    waits: 'waits for tool results and approvals',
    sent: 'its answers were sent',
  },
  turn: {
    label: 'paused turn',
    waits: 'waits for its turn to be continued (pause_turn: the request sent again as it stands; no tool is asked for)',
    sent: 'it was continued',
  },
};

/** Who stopped a stream: the user (the Stop button, Ctrl-C) or the system ending the process (SIGTERM). */
export type StopCause = 'user' | 'terminated';

const blockList = (blocks: readonly { id: number; kind: string }[]): string => {
  const shown = blocks.slice(0, 3).map((b) => `#${b.id} (${b.kind})`);
  return `${shown.join(', ')}${blocks.length > 3 ? ` and ${blocks.length - 3} more` : ''}`;
};

const status = (kind: EndStatusKind, reason: string): EndStatus => ({ kind, label: END_STATUSES[kind].label, reason });

/** The end status of a session that is no longer receiving. */
export function endStatusOf(facts: EndFacts): EndStatus {
  const { stream, outcome } = facts;
  if (outcome?.kind === 'stopped')
    return status(
      'stopped',
      outcome.by === 'terminated'
        ? 'The process was asked to end (SIGTERM), so the stream was stopped.'
        : 'The user stopped the stream.',
    );
  const frames = stream?.frames ?? 0;
  if (outcome?.kind === 'failed' && frames === 0 && !stream?.cutMidEvent) return status('failed', outcome.message);
  if (stream?.error)
    return status('error', `The stream ended with an error in event ${stream.error.frame}: ${stream.error.message}`);
  const because = outcome ? `: ${outcome.message}` : '.';
  if (stream?.transportOnly) return transportStatus(stream, facts);
  if (stream === null || frames === 0)
    return status(
      'truncated',
      `The stream ended ${stream?.cutMidEvent ? 'inside its first event' : 'before any event'}${because}`,
    );
  if (stream.cutMidEvent)
    return status(
      'truncated',
      `The stream was cut inside an event after ${countOf(frames, 'complete event')}${because}`,
    );
  if (!stream.terminal)
    return status(
      'truncated',
      `The stream ended after ${countOf(frames, 'event')} without ${stream.awaited ?? 'its terminal event'}${because}`,
    );
  // Lost data explains blocks left open by the hole; where the stream itself was cut says more.
  if (facts.lostData) return status('truncated', `Part of the stream was lost: ${facts.lostData}`);
  // The protocol's own end says the output stops short: the blocks it leaves open are explained.
  if (stream.incomplete)
    return status(
      'incomplete',
      `The stream ended with ${stream.terminal.event}, but the output was cut short in event ${stream.incomplete.frame}: ${stream.incomplete.message}.`,
    );
  if (facts.openBlocks.length > 0)
    return status(
      'truncated',
      `The stream ended with ${facts.openBlocks.length === 1 ? 'block' : 'blocks'} ${blockList(facts.openBlocks)} still open (no final envelope).`,
    );
  if (facts.abandonedBlocks.length > 0) {
    const one = facts.abandonedBlocks.length === 1;
    return status(
      'truncated',
      `${one ? 'Block' : 'Blocks'} ${blockList(facts.abandonedBlocks)} never closed: ${one ? 'it was' : 'they were'} opened again before the final marker (a retried call replays a block; interleaved XML sub-agents look the same).`,
    );
  }
  const paused = PAUSED[facts.awaiting ?? 'results'];
  if (facts.awaitingTools && facts.answered)
    return status(
      'truncated',
      `The run paused on awaiting_frontend_tools and ${paused.sent}, but the session ends before their continuation.`,
    );
  if (facts.awaitingTools)
    return {
      kind: 'paused',
      label: paused.label,
      reason: `The run paused on awaiting_frontend_tools and ${paused.waits}.`,
    };
  return status('done', `The stream ended with ${stream.terminal.event}.`);
}

/**
 * The end of a stream whose dialect knows no terminal event: whether the body ended between
 * events ("ended") or the bytes stopped inside one, or the connection or recording broke off
 * ("cut off"). Nothing is said of a protocol the inspector does not know; only `[DONE]`, the
 * terminator the pipeline reads in every stream, makes one "done".
 */
function transportStatus(stream: StreamEnd, facts: EndFacts): EndStatus {
  const { outcome, lostData } = facts;
  // How the connection or the recording broke off, when it did (a stop was said before).
  const broke = outcome?.kind === 'failed' || outcome?.kind === 'cut' ? outcome.message : undefined;
  const complete = countOf(stream.frames, 'complete event');
  if (stream.cutMidEvent)
    return status('cut', `The bytes stopped inside an event after ${complete}${broke ? `: ${broke}` : '.'}`);
  if (broke !== undefined) return status('cut', `The stream broke off after ${complete}: ${broke}`);
  if (lostData) return status('truncated', `Part of the stream was lost: ${lostData}`);
  // `[DONE]`, which the pipeline knows for every stream, still says the stream is over.
  if (stream.terminal) return status('done', `The stream ended with ${stream.terminal.event}.`);
  const events = stream.frames === 0 ? 'no event' : countOf(stream.frames, 'event');
  const why =
    stream.transportOnly === 'protocol'
      ? 'its protocol gives a stream like this one no terminal event'
      : 'no dialect says how this stream should end';
  return status('ended', `The body ended between events, after ${events}; ${why}, so nothing more is claimed.`);
}

/** The block facts of EndFacts: blocks left open or abandoned, and a pause on frontend tools in `lastLeg`. */
export function blockEndFacts(
  blocks: readonly Block[],
  lastLeg: number,
): Pick<EndFacts, 'openBlocks' | 'abandonedBlocks' | 'awaitingTools' | 'awaiting'> {
  const openBlocks: { id: number; kind: string }[] = [];
  const abandonedBlocks: { id: number; kind: string }[] = [];
  let pause: Block | undefined;
  for (const block of blocks) {
    if (block.status === 'open') openBlocks.push({ id: block.id, kind: block.kind });
    else if (block.status === 'abandoned') abandonedBlocks.push({ id: block.id, kind: block.kind });
    else if (block.leg === lastLeg && awaitsClient(block)) pause = block;
  }
  if (pause === undefined) return { openBlocks, abandonedBlocks, awaitingTools: false };
  return { openBlocks, abandonedBlocks, awaitingTools: true, awaiting: awaitedBy(pause) };
}

/**
 * The pause facts of a decoder that keeps no blocks (the CLI's streamed files, `record`): the
 * legs whose pause it saw, with what each waits for, and the last leg.
 */
export function pauseFacts(
  paused: ReadonlyMap<number, Awaited>,
  lastLeg: number,
): Pick<EndFacts, 'awaitingTools' | 'awaiting'> {
  const awaiting = paused.get(lastLeg);
  return awaiting === undefined ? { awaitingTools: false } : { awaitingTools: true, awaiting };
}

/** What a pause's block waits for (EndFacts.awaiting). */
export function awaitedBy(pause: Pick<Block, 'pendingTools' | 'pausedTurn'>): Awaited {
  const tools = pause.pendingTools ?? [];
  if (tools.length === 0) return pause.pausedTurn === true ? 'turn' : 'results';
  return awaitedOf(tools);
}

/**
 * What calls a run paused on wait for, by whether each waits for its approval (an approval
 * id) or its result: the one reading of a pause's calls, for its status and for the app's
 * prompt and notices.
 */
export function awaitedOf(calls: readonly { approvalId?: string | null }[]): Exclude<Awaited, 'turn'> {
  const approvals = calls.filter((call) => (call.approvalId ?? null) !== null).length;
  return approvals === 0 ? 'results' : approvals === calls.length ? 'approvals' : 'answers';
}
