import type { Severity } from '../../../../src-shared/diagnostics/types';
import type { Badge } from './views';

const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];
const LEVELS = SEVERITIES.length;

/**
 * Finding badges by number (an envelope, or a leg's frame: see `frameBadgeKey`), each packed
 * into one number (count and worst severity), so a stream with a finding on every event
 * costs a map entry per event, not an object.
 */
export class Badges {
  private readonly packed = new Map<number, number>();

  add(key: number, severity: Severity): void {
    const previous = this.packed.get(key);
    const rank = SEVERITIES.indexOf(severity);
    if (previous === undefined) this.packed.set(key, LEVELS + rank);
    else this.packed.set(key, (Math.floor(previous / LEVELS) + 1) * LEVELS + Math.max(rank, previous % LEVELS));
  }

  get(key: number): Badge | undefined {
    const value = this.packed.get(key);
    return value === undefined ? undefined : { count: Math.floor(value / LEVELS), severity: SEVERITIES[value % LEVELS] as Severity };
  }

  keys(): IterableIterator<number> {
    return this.packed.keys();
  }

  clear(): void {
    this.packed.clear();
  }
}

/** The badge key of a leg's frame (frames and legs stay far below these bounds). */
export function frameBadgeKey(leg: number, frame: number): number {
  return leg * 2 ** 32 + frame;
}

export function frameOfBadgeKey(key: number): { leg: number; frame: number } {
  return { leg: Math.floor(key / 2 ** 32), frame: key % 2 ** 32 };
}
