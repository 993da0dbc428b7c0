/** Deltas joined into one string at a time: see TextChunks. */
const RUN = 32;

/**
 * A text's deltas, kept for a continuation (the assistant message a client sends back): joined
 * a run at a time, so a long text holds one string per run, not one per delta. Every delta kept alive until the
 * message ends is copied out of V8's young generation at each scavenge: keeping them one by
 * one cost the v4 data stream's decode about a quarter of its CPU time (docs/performance.md,
 * "Stop 45").
 */
export class TextChunks {
  private readonly runs: string[] = [];
  private pending: string[] = [];

  push(text: string): void {
    const pending = this.pending;
    pending.push(text);
    if (pending.length === RUN) this.seal();
  }

  /** Joins the deltas not joined yet: the part ended (or a run is full). */
  seal(): void {
    if (this.pending.length === 0) return;
    this.runs.push(this.pending.join(''));
    this.pending = [];
  }

  text(): string {
    return this.runs.join('') + this.pending.join('');
  }
}
