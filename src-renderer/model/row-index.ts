import type { RowColumns, TimelineRow } from '../../src-shared/contract';
import { ROW_FLAG, rowFlags } from '../../src-shared/contract/row-columns';

/**
 * A compact column store of every row the renderer has seen: a few bytes per envelope
 * (receive time, agent, type, flags), enough to filter and draw lanes over a million rows
 * without keeping the full row objects (those live in the paged `RowCache`). Batches fill it
 * from their compact columns (src-shared/contract/row-columns.ts), whose flag bits it keeps.
 */

/** Set on rows whose columns are filled; above the bits of `ROW_FLAG`. */
const KNOWN = 1 << 7;
const SEVERITY_MASK = 3 << ROW_FLAG.severityShift;

const INITIAL_CAPACITY = 1024;

export class RowIndex {
  private receivedAtColumn = new Float64Array(INITIAL_CAPACITY);
  private agentColumn = new Uint16Array(INITIAL_CAPACITY);
  private typeColumn = new Uint16Array(INITIAL_CAPACITY);
  private flagColumn = new Uint8Array(INITIAL_CAPACITY);
  private readonly agentIds = new Map<string, number>();
  private readonly typeIds = new Map<string, number>();
  /** Interned agent uuids and types, by id. */
  readonly agents: string[] = [];
  readonly types: string[] = [];
  /** Envelopes that exist (the session's total), known or not. */
  total = 0;
  /** Rows whose columns are filled. */
  known = 0;
  /** Bumps on every change; derived data compares it. */
  version = 0;

  setTotal(total: number): void {
    if (total <= this.total) return;
    this.total = total;
    this.ensureCapacity(total);
    this.version++;
  }

  /** Records a row (new or changed). */
  set(row: TimelineRow): void {
    this.put(
      row.seq,
      row.receivedAt,
      intern(row.agent, this.agentIds, this.agents),
      intern(row.type, this.typeIds, this.types),
      rowFlags(row),
    );
    this.version++;
  }

  /** Records consecutive rows from `start` in a batch's compact columns. */
  setColumns(start: number, columns: RowColumns): void {
    const n = columns.receivedAt.length;
    if (n === 0) return;
    if (start + n > this.total) this.setTotal(start + n);
    // The batch's strings (agents and types together), mapped to this index's ids once each,
    // and only in the table they are used in.
    const agentIds: number[] = [];
    const typeIds: number[] = [];
    for (let i = 0; i < n; i++) {
      const agent = columns.agent[i]!;
      const type = columns.type[i]!;
      agentIds[agent] ??= intern(columns.strings[agent]!, this.agentIds, this.agents);
      typeIds[type] ??= intern(columns.strings[type]!, this.typeIds, this.types);
      this.put(start + i, columns.receivedAt[i]!, agentIds[agent], typeIds[type], columns.flags[i]!);
    }
    this.version++;
  }

  private put(seq: number, receivedAt: number, agent: number, type: number, flags: number): void {
    if (seq >= this.total) this.setTotal(seq + 1);
    if ((this.flagColumn[seq]! & KNOWN) === 0) this.known++;
    this.receivedAtColumn[seq] = receivedAt;
    this.agentColumn[seq] = agent;
    this.typeColumn[seq] = type;
    this.flagColumn[seq] = KNOWN | flags;
  }

  isKnown(seq: number): boolean {
    return seq < this.total && (this.flagColumn[seq]! & KNOWN) !== 0;
  }

  get complete(): boolean {
    return this.known >= this.total;
  }

  receivedAt(seq: number): number {
    return this.receivedAtColumn[seq] ?? 0;
  }

  agentId(seq: number): number {
    return this.agentColumn[seq] ?? 0;
  }

  agentOf(seq: number): string | undefined {
    return this.isKnown(seq) ? this.agents[this.agentColumn[seq]!] : undefined;
  }

  typeId(seq: number): number {
    return this.typeColumn[seq] ?? 0;
  }

  typeOf(seq: number): string | undefined {
    return this.isKnown(seq) ? this.types[this.typeColumn[seq]!] : undefined;
  }

  isFinal(seq: number): boolean {
    return (this.flagColumn[seq]! & ROW_FLAG.final) !== 0;
  }

  isControl(seq: number): boolean {
    return (this.flagColumn[seq]! & ROW_FLAG.control) !== 0;
  }

  hasFindings(seq: number): boolean {
    return (this.flagColumn[seq]! & ROW_FLAG.hasFindings) !== 0;
  }

  /** 0 none, 1 info, 2 warning, 3 error. */
  severityRank(seq: number): number {
    return (this.flagColumn[seq]! & SEVERITY_MASK) >> ROW_FLAG.severityShift;
  }

  agentIdOf(agent: string): number | undefined {
    return this.agentIds.get(agent);
  }

  typeIdOf(type: string): number | undefined {
    return this.typeIds.get(type);
  }

  /** Ranges [start, end) of rows not known yet, at most `limit` of them, from `from` on. */
  missingRanges(limit = Number.POSITIVE_INFINITY, from = 0): [number, number][] {
    const ranges: [number, number][] = [];
    let start = -1;
    for (let seq = from; seq < this.total && ranges.length < limit; seq++) {
      const known = (this.flagColumn[seq]! & KNOWN) !== 0;
      if (!known && start < 0) start = seq;
      if (known && start >= 0) {
        ranges.push([start, seq]);
        start = -1;
      }
    }
    if (start >= 0 && ranges.length < limit) ranges.push([start, this.total]);
    return ranges;
  }

  private ensureCapacity(size: number): void {
    if (size <= this.flagColumn.length) return;
    let capacity = this.flagColumn.length;
    while (capacity < size) capacity *= 2;
    this.receivedAtColumn = grow(this.receivedAtColumn, new Float64Array(capacity));
    this.agentColumn = grow(this.agentColumn, new Uint16Array(capacity));
    this.typeColumn = grow(this.typeColumn, new Uint16Array(capacity));
    this.flagColumn = grow(this.flagColumn, new Uint8Array(capacity));
  }
}

function grow<T extends Float64Array | Uint16Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

function intern(value: string, ids: Map<string, number>, values: string[]): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = values.length;
    ids.set(value, id);
    values.push(value);
  }
  return id;
}
