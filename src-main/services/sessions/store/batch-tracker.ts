/**
 * What a session's next batch carries: the rows appended since the last batch, the rows that
 * changed after they were sent (a block id or a badge arrived), the agents that changed, and
 * whether the blocks' revision or the findings moved on. The store marks; a batch takes.
 */
export interface BatchMarks {
  /** Envelopes in the session now. */
  rows: number;
  blockRevision: number;
  diagnostics: number;
  diagnosticResets: number;
}

export interface TakenChanges {
  /** The new rows: [start, end). */
  start: number;
  end: number;
  /** Changed rows already sent, lowest first. */
  changed: number[];
  agents: string[];
}

export class BatchTracker {
  private sentRows = 0;
  private readonly dirtyRows = new Set<number>();
  private readonly dirtyAgents = new Set<string>();
  private sentBlockRevision = 0;
  private sentDiagnostics = 0;
  private sentResets = 0;

  /** A row changed: a batch carries it again if it was sent already. */
  touchRow(seq: number): void {
    if (seq < this.sentRows) this.dirtyRows.add(seq);
  }

  touchAgent(uuid: string): void {
    this.dirtyAgents.add(uuid);
  }

  pending(now: BatchMarks): boolean {
    return (
      this.sentRows < now.rows ||
      this.dirtyRows.size > 0 ||
      this.dirtyAgents.size > 0 ||
      this.sentBlockRevision !== now.blockRevision ||
      this.sentDiagnostics !== now.diagnostics ||
      this.sentResets !== now.diagnosticResets
    );
  }

  /** Marks as sent at most `maxRows` new rows, at most `maxChanges` changed rows, every changed agent and `now`'s revisions. */
  take(now: BatchMarks, maxRows: number, maxChanges: number): TakenChanges {
    const start = this.sentRows;
    const end = Math.min(now.rows, start + maxRows);
    this.sentRows = end;
    const changed = takeLowest(this.dirtyRows, maxChanges);
    const agents = [...this.dirtyAgents];
    this.dirtyAgents.clear();
    this.sentBlockRevision = now.blockRevision;
    this.sentDiagnostics = now.diagnostics;
    this.sentResets = now.diagnosticResets;
    return { start, end, changed, agents };
  }
}

/** Removes and returns the `max` lowest numbers of `set`, in order. */
function takeLowest(set: Set<number>, max: number): number[] {
  const sorted = [...set].sort((a, b) => a - b);
  const taken = sorted.length > max ? sorted.slice(0, max) : sorted;
  if (taken === sorted) set.clear();
  else for (const n of taken) set.delete(n);
  return taken;
}
