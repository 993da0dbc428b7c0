/**
 * Column storage for the session's per-envelope and per-frame index: growable typed arrays
 * and interned strings instead of one object per item, so an index entry costs tens of bytes
 * rather than hundreds (a 100 MB stream has about half a million envelopes).
 */

/**
 * The next capacity of a growing column. By a fifth: a live session's columns are never
 * trimmed, so their spare room is part of what it keeps (a tenth on average and a fifth at
 * most, against a fifth and a half growing by half); the copies it costs are memory copies,
 * five per item in all.
 */
function grown(length: number): number {
  return Math.ceil(length * 1.2) + 16;
}

type NumberArray = Float64Array | Int32Array | Uint8Array;
type NumberArrayConstructor<T extends NumberArray> = new (length: number) => T;

export class Column<T extends NumberArray> {
  private data: T;
  constructor(
    private readonly Type: NumberArrayConstructor<T>,
    initial = 1024,
  ) {
    this.data = new Type(initial);
  }

  get(index: number): number {
    return this.data[index] as number;
  }

  set(index: number, value: number): void {
    if (index >= this.data.length) {
      let size = grown(this.data.length);
      while (size <= index) size = grown(size);
      const next = new this.Type(size);
      next.set(this.data);
      this.data = next;
    }
    this.data[index] = value;
  }

  /** Bytes the column takes. */
  get byteLength(): number {
    return this.data.byteLength;
  }

  /** Releases the spare capacity once no more items will be added. */
  trim(size: number): void {
    if (size < this.data.length) this.data = this.data.slice(0, Math.max(1, size)) as T;
  }
}

type UintArray = Uint8Array | Uint16Array | Uint32Array | Float64Array;
/** Each step of UintColumn's widening, with the largest value it holds. */
const WIDTHS: readonly { Type: new (length: number) => UintArray; max: number }[] = [
  { Type: Uint8Array, max: 0xff },
  { Type: Uint16Array, max: 0xffff },
  { Type: Uint32Array, max: 0xffffffff },
  { Type: Float64Array, max: Number.MAX_SAFE_INTEGER },
];

/**
 * A column of non-negative integers that starts one byte wide and widens (to 2, 4, then 8
 * bytes) when a value needs it: a session's legs, agents and types are a handful, its offsets
 * and block ids grow with it, and each takes only the width its largest value needs.
 */
export class UintColumn {
  private width = 0;
  private data: UintArray;
  constructor(initial = 1024) {
    this.data = new Uint8Array(initial);
  }

  /** 0 past the items set so far. */
  get(index: number): number {
    return this.data[index] ?? 0;
  }

  set(index: number, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${value} is not a non-negative integer`);
    while (value > (WIDTHS[this.width] as (typeof WIDTHS)[number]).max) this.resize(this.data.length, this.width + 1);
    if (index >= this.data.length) {
      let size = grown(this.data.length);
      while (size <= index) size = grown(size);
      this.resize(size, this.width);
    }
    this.data[index] = value;
  }

  /** Bytes the column takes. */
  get byteLength(): number {
    return this.data.byteLength;
  }

  /** Releases the spare capacity once no more items will be added. */
  trim(size: number): void {
    if (size < this.data.length) this.resize(Math.max(1, size), this.width);
  }

  private resize(length: number, width: number): void {
    const next = new (WIDTHS[width] as (typeof WIDTHS)[number]).Type(length);
    next.set(this.data.length > length ? this.data.subarray(0, length) : this.data);
    this.data = next;
    this.width = width;
  }
}

/** Items per run of a NearColumn: its base costs 8 bytes, an eighth of a byte per item. */
const RUN = 64;

/**
 * Non-negative integers that lie close to their neighbours (byte offsets, sequence numbers,
 * whole-millisecond times): each run of RUN items keeps its smallest value as a base and the
 * items only their distance from it, in a UintColumn as wide as the largest distance needs.
 * A byte offset in a long stream takes two bytes this way instead of four, a sequence number
 * one. An item may be left unset (read back as -1), which costs nothing in width.
 */
export class NearColumn {
  /** Each run's base + 1 (0: the run has no item set yet). */
  private readonly bases = new Column(Float64Array, 16);
  /** Each item's distance from its run's base + 1 (0: unset). */
  private readonly distances = new UintColumn();

  /** -1 when the item was never set. */
  get(index: number): number {
    const distance = this.distances.get(index);
    return distance === 0 ? -1 : this.bases.get(Math.floor(index / RUN)) + distance - 2;
  }

  set(index: number, value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${value} is not a non-negative integer`);
    const run = Math.floor(index / RUN);
    const stored = this.bases.get(run);
    if (stored === 0 || stored === undefined) {
      this.bases.set(run, value + 1);
      this.distances.set(index, 1);
      return;
    }
    let base = stored - 1;
    if (value < base) {
      // A smaller value than the run's base: the run's items move away from the new base.
      const shift = base - value;
      for (let i = run * RUN; i < (run + 1) * RUN; i++) {
        const distance = this.distances.get(i);
        if (distance !== 0) this.distances.set(i, distance + shift);
      }
      this.bases.set(run, value + 1);
      base = value;
    }
    this.distances.set(index, value - base + 1);
  }

  /** Bytes the column takes. */
  get byteLength(): number {
    return this.bases.byteLength + this.distances.byteLength;
  }

  /** Releases the spare capacity once no more items will be added. */
  trim(size: number): void {
    this.bases.trim(Math.ceil(size / RUN));
    this.distances.trim(size);
  }
}

/**
 * Receive times: in a NearColumn while they are whole milliseconds, as a live connection
 * stamps them (one or two bytes each), in 8-byte floats from the first that is not (a
 * recording may carry any number).
 */
export class TimeColumn {
  private near: NearColumn | null = new NearColumn();
  private floats: Column<Float64Array> | null = null;
  private size = 0;

  get(index: number): number {
    if (this.floats) return this.floats.get(index) ?? 0;
    const time = (this.near as NearColumn).get(index);
    return time < 0 ? 0 : time;
  }

  set(index: number, value: number): void {
    if (this.near && !(Number.isSafeInteger(value) && value >= 0)) {
      const floats = new Column(Float64Array, Math.max(this.size, 16));
      for (let i = 0; i < this.size; i++) floats.set(i, this.get(i));
      this.floats = floats;
      this.near = null;
    }
    if (this.floats) this.floats.set(index, value);
    else (this.near as NearColumn).set(index, value);
    this.size = Math.max(this.size, index + 1);
  }

  get byteLength(): number {
    return (this.near ?? (this.floats as Column<Float64Array>)).byteLength;
  }

  trim(size: number): void {
    (this.near ?? (this.floats as Column<Float64Array>)).trim(size);
  }
}

/**
 * Values that stay the same for long runs of items appended in order (the leg of a session's
 * envelopes): a run's first item and value each, an item's found by binary search.
 */
export class RunColumn {
  private readonly starts: number[] = [];
  private readonly values: number[] = [];
  private size = 0;

  append(value: number): void {
    if (this.values.at(-1) !== value) {
      this.starts.push(this.size);
      this.values.push(value);
    }
    this.size += 1;
  }

  /** 0 past the items appended. */
  get(index: number): number {
    if (index < 0 || index >= this.size) return 0;
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.starts[middle] as number) <= index) low = middle;
      else high = middle - 1;
    }
    return this.values[low] as number;
  }

  /** Bytes the column takes (two numbers per run). */
  get byteLength(): number {
    return this.starts.length * 16;
  }

  /** Nothing to release: runs are kept exactly. */
  trim(): void {}
}

/** Strings that repeat across items (agent uuids, envelope types, SSE event names), stored once. */
export class Interned {
  private readonly values: string[] = [];
  private readonly ids = new Map<string, number>();

  id(value: string): number {
    let id = this.ids.get(value);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(value);
      this.ids.set(value, id);
    }
    return id;
  }

  value(id: number): string {
    return this.values[id] ?? '';
  }
}
