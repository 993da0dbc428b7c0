import {
  createBreakpointMatcher,
  sameBreakpoint,
  type Breakpoint,
  type BreakpointFinding,
  type BreakpointHit,
} from '../../../../src-shared/replay/breakpoints';
import type { SessionStore } from '../store/session-store';

/**
 * A replay's breakpoints (docs/replay.md) and what its matcher has seen of the session played
 * into: `look` shows the matcher what was delivered since it last looked, envelopes first,
 * then findings, and gives the first hit.
 */
export class BreakpointWatch {
  /** Replaced, never changed in place: the announced state compares it by identity. */
  list: Breakpoint[] = [];
  private matcher = createBreakpointMatcher(this.list);
  /** The breakpoint the replay paused at, until it moves on. */
  hit: BreakpointHit | undefined;
  /** Envelopes and findings of the session the matcher has seen. */
  private seenEnvelopes = 0;
  private seenFindings = 0;

  /** The first hit among what was delivered since the last look (null: none). Without breakpoints it only moves its marks. */
  look(data: SessionStore): BreakpointHit | null {
    const findings = data.diagnostics();
    if (this.list.length === 0) {
      this.seenEnvelopes = data.envelopeCount;
      this.seenFindings = findings.length;
      return null;
    }
    let first: BreakpointHit | null = null;
    for (; this.seenEnvelopes < data.envelopeCount; this.seenEnvelopes++) {
      const facts = data.envelopeFacts(this.seenEnvelopes);
      if (facts) first ??= this.matcher.envelope(facts)[0] ?? null;
    }
    if (this.seenFindings < findings.length) {
      const fresh = findings.slice(this.seenFindings).map((d): BreakpointFinding => ({
        severity: d.severity,
        rule: d.rule,
        message: d.message,
        envelope: data.findingEnvelope(d) ?? Math.max(0, data.envelopeCount - 1),
      }));
      this.seenFindings = findings.length;
      const error = this.matcher.findings(fresh);
      if (error && (first === null || error.envelope < first.envelope)) first = error;
    }
    return first;
  }

  set(next: readonly Breakpoint[], data: SessionStore): void {
    this.list = [...next];
    this.matcher = createBreakpointMatcher(this.list);
    // The envelope delivered last tells whether a run of matches is under way already.
    const last = data.envelopeFacts(data.envelopeCount - 1);
    if (last) this.matcher.envelope(last);
    this.seenEnvelopes = data.envelopeCount;
    this.seenFindings = data.diagnostics().length;
    const paused = this.hit;
    if (paused && !this.list.some((b) => sameBreakpoint(b, paused.breakpoint))) this.hit = undefined;
  }

  /** The replay started over into an empty session: nothing seen, no hit. */
  reset(): void {
    this.matcher = createBreakpointMatcher(this.list);
    this.seenEnvelopes = this.seenFindings = 0;
    this.hit = undefined;
  }
}
