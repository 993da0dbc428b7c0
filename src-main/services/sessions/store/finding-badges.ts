import {
  SEVERITIES_MILDEST_FIRST as SEVERITIES,
  zeroSeverityCounts,
} from '../../../../src-shared/diagnostics/severity';
import { LostData } from '../../../../src-shared/recording/diagnostics';
import type { Diagnostic, Severity } from '../../../../src-shared/diagnostics/types';
import type { DiagnosticStore } from './diagnostic-store';
import { addToBadge, type Badge } from './session-summary';

const LEVELS = SEVERITIES.length;

/**
 * Finding badges by number (an envelope, or a leg's frame), each packed into one number
 * (count and worst severity), so a stream with a finding on every event costs a map entry per
 * event, not an object. A bit per number says whether it has one: a batch asks for every new
 * row's badge, and most rows have none; bits read in order stay in the cache where a lookup
 * in a map of tens of thousands of findings, made between decoding chunks, does not (it was
 * 2-4 % of a 100 MB open).
 */
export class Badges {
  private readonly packed = new Map<number, number>();
  private present = new Uint8Array(0);

  add(key: number, severity: Severity): void {
    const previous = this.packed.get(key);
    const rank = SEVERITIES.indexOf(severity);
    if (previous === undefined) this.packed.set(key, LEVELS + rank);
    else this.packed.set(key, (Math.floor(previous / LEVELS) + 1) * LEVELS + Math.max(rank, previous % LEVELS));
    const byte = key >>> 3;
    if (byte >= this.present.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.present.length * 2));
      grown.set(this.present);
      this.present = grown;
    }
    this.present[byte]! |= 1 << (key & 7);
  }

  get(key: number): Badge | undefined {
    const byte = key >>> 3;
    if (byte >= this.present.length || (this.present[byte]! & (1 << (key & 7))) === 0) return undefined;
    const value = this.packed.get(key) as number;
    return { count: Math.floor(value / LEVELS), severity: SEVERITIES[value % LEVELS] as Severity };
  }

  keys(): IterableIterator<number> {
    return this.packed.keys();
  }

  clear(): void {
    this.packed.clear();
    this.present = new Uint8Array(0);
  }
}

/**
 * A session's findings with the badges they put on rows: a finding about an envelope badges
 * its row, one about a frame badges the frame's first envelope. Every row whose badge changes
 * is reported to `touchRow` (a batch carries it again); the counts by severity and the number
 * of times the list was replaced (`resets`) follow.
 */
export class FindingBadges {
  private readonly byEnvelope = new Badges();
  /** By leg, then frame. */
  private readonly byFrame: Badges[] = [];
  private readonly counts = zeroSeverityCounts();
  private readonly lost = new LostData();
  /** Times the findings were replaced (the inline mode changed). */
  resets = 0;

  constructor(
    private readonly store: DiagnosticStore,
    /** The first envelope of a leg's frame (-1 when the frame has none yet). */
    private readonly firstEnvelope: (leg: number, frame: number) => number,
    private readonly touchRow: (seq: number) => void,
  ) {}

  get count(): number {
    return this.store.count;
  }

  all(from?: number): Diagnostic[] {
    return this.store.all(from);
  }

  severityCounts(): Record<Severity, number> {
    return { ...this.counts };
  }

  /** What the findings say was lost of the stream (a file's holes, damaged lines), for the end status. */
  lostData(): string | undefined {
    return this.lost.describe();
  }

  add(diagnostic: Diagnostic): void {
    const stored: Diagnostic = { ...diagnostic, seq: this.store.count };
    this.store.add(stored);
    this.counts[stored.severity] += 1;
    this.lost.add(stored);
    const { envelope, frame } = stored.at;
    if (envelope !== undefined) {
      this.byEnvelope.add(envelope, stored.severity);
      this.touchRow(envelope);
    } else if (frame !== undefined) {
      const leg = stored.at.leg ?? 0;
      (this.byFrame[leg] ??= new Badges()).add(frame, stored.severity);
      const first = this.firstEnvelope(leg, frame);
      if (first >= 0) this.touchRow(first);
    }
  }

  /** Forget every finding, then add `kept` again (renumbered): badges and counts follow. */
  replace(kept: readonly Diagnostic[]): void {
    for (const seq of this.byEnvelope.keys()) this.touchRow(seq);
    this.byFrame.forEach((frames, leg) => {
      for (const frame of frames.keys()) {
        const first = this.firstEnvelope(leg, frame);
        if (first >= 0) this.touchRow(first);
      }
    });
    this.store.clear();
    this.byEnvelope.clear();
    this.byFrame.length = 0;
    this.counts.error = this.counts.warning = this.counts.info = 0;
    this.lost.clear();
    this.resets += 1;
    for (const d of kept) this.add(d);
  }

  /** An envelope's findings, and those of its frame on the frame's first envelope. */
  badgeOf(seq: number, leg: number, frame: number): Badge | undefined {
    const badge = this.byEnvelope.get(seq);
    const frameBadge = this.byFrame[leg]?.get(frame);
    if (!frameBadge || this.firstEnvelope(leg, frame) !== seq) return badge;
    return badge
      ? { count: badge.count + frameBadge.count, severity: addToBadge(badge, frameBadge.severity).severity }
      : frameBadge;
  }
}
