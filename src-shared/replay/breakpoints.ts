import type { Severity } from '../diagnostics/severity';

/**
 * Replay breakpoints: conditions that pause a playing replay at the envelope that meets them,
 * the way a debugger pauses on a line. These kinds are offered (docs/replay.md):
 *
 * - `type`: an envelope of this type (`awaiting_frontend_tools`, `tool_call`, `error`…);
 * - `agent`: an envelope of this agent (by uuid);
 * - `agent-block`: an envelope of this agent that starts a new block (its first text delta,
 *   a tool call…): with agents interleaving, `agent` would hit at every switch back to it;
 * - `error`: an error-severity finding.
 *
 * Envelopes come in runs (a text answer is forty `text` deltas, an agent speaks for a while):
 * a `type` or `agent` breakpoint hits on the first envelope of each run of envelopes it
 * matches, not on every one of them, so Continue goes to the next place where it starts to
 * match again. An `agent-block` breakpoint hits on every block the agent starts. An `error` breakpoint hits on every new error finding; several found by one
 * delivery are one hit, at the first.
 *
 * The matcher is fed what a replay delivers, in order, and answers the hits; it keeps one bit
 * per breakpoint, whatever the length of the stream.
 */

export type Breakpoint =
  | { kind: 'type'; type: string }
  | { kind: 'agent'; agent: string }
  | { kind: 'agent-block'; agent: string }
  | { kind: 'error' };

/** The envelope facts a breakpoint reads. */
export interface BreakpointEnvelope {
  readonly seq: number;
  readonly type: string;
  readonly agent: string;
  /** The envelope is the first of the block it belongs to. */
  readonly startsBlock: boolean;
}

/** A finding as a breakpoint reads it, with the envelope it belongs to. */
export interface BreakpointFinding {
  readonly severity: Severity;
  readonly rule: string;
  readonly message: string;
  readonly envelope: number;
}

export interface BreakpointHit {
  readonly breakpoint: Breakpoint;
  /** The envelope it paused at (seq). */
  readonly envelope: number;
  /** For an error finding: its rule and message. */
  readonly rule?: string;
  readonly message?: string;
}

export interface BreakpointMatcher {
  /** The next envelope delivered: the hits it makes (empty when none). */
  envelope(envelope: BreakpointEnvelope): BreakpointHit[];
  /** The findings a delivery produced, in order: the hit it makes, if any. */
  findings(findings: readonly BreakpointFinding[]): BreakpointHit | null;
}

/** The same breakpoint (for adding without duplicates and removing). */
export function sameBreakpoint(a: Breakpoint, b: Breakpoint): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'type' && b.kind === 'type') return a.type === b.type;
  if ((a.kind === 'agent' && b.kind === 'agent') || (a.kind === 'agent-block' && b.kind === 'agent-block'))
    return a.agent === b.agent;
  return true;
}

/** Adds a breakpoint unless it is set already. */
export function withBreakpoint(list: readonly Breakpoint[], breakpoint: Breakpoint): Breakpoint[] {
  return list.some((b) => sameBreakpoint(b, breakpoint)) ? [...list] : [...list, breakpoint];
}

export function withoutBreakpoint(list: readonly Breakpoint[], breakpoint: Breakpoint): Breakpoint[] {
  return list.filter((b) => !sameBreakpoint(b, breakpoint));
}

/** How a breakpoint reads in the UI; `agentName` turns a uuid into "main", "sub 1"… */
export function describeBreakpoint(
  breakpoint: Breakpoint,
  agentName: (uuid: string) => string = (uuid) => uuid,
): string {
  switch (breakpoint.kind) {
    case 'type':
      return `type ${breakpoint.type}`;
    case 'agent':
      return `agent ${agentName(breakpoint.agent)}`;
    case 'agent-block':
      return `agent ${agentName(breakpoint.agent)} starts a block`;
    case 'error':
      return 'error finding';
  }
}

export function createBreakpointMatcher(breakpoints: readonly Breakpoint[]): BreakpointMatcher {
  /** Per breakpoint: the previous envelope matched it too (the current run started earlier). */
  const inRun = breakpoints.map(() => false);
  const errorBreakpoint = breakpoints.find((b) => b.kind === 'error');
  return {
    envelope(envelope) {
      const hits: BreakpointHit[] = [];
      breakpoints.forEach((breakpoint, i) => {
        if (breakpoint.kind === 'agent-block') {
          if (envelope.startsBlock && envelope.agent === breakpoint.agent)
            hits.push({ breakpoint, envelope: envelope.seq });
          return;
        }
        const matches =
          breakpoint.kind === 'type'
            ? envelope.type === breakpoint.type
            : breakpoint.kind === 'agent'
              ? envelope.agent === breakpoint.agent
              : false;
        if (matches && !inRun[i]) hits.push({ breakpoint, envelope: envelope.seq });
        inRun[i] = matches;
      });
      return hits;
    },
    findings(findings) {
      if (!errorBreakpoint) return null;
      const error = findings.find((f) => f.severity === 'error');
      return error
        ? { breakpoint: errorBreakpoint, envelope: error.envelope, rule: error.rule, message: error.message }
        : null;
    },
  };
}
