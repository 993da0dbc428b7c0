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

  /** Releases the spare capacity once no more items will be added. */
  trim(size: number): void {
    if (size < this.data.length) this.data = this.data.slice(0, Math.max(1, size)) as T;
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
