/**
 * Column storage for the session's per-envelope and per-frame index: growable typed arrays
 * and interned strings instead of one object per item, so an index entry costs tens of bytes
 * rather than hundreds (a 100 MB stream has about half a million envelopes).
 */

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
      // Growing by half keeps the spare capacity (and the copy) small for large sessions.
      let size = Math.ceil(this.data.length * 1.5);
      while (size <= index) size = Math.ceil(size * 1.5);
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
      let size = Math.ceil(this.data.length * 1.5);
      while (size <= index) size = Math.ceil(size * 1.5);
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
