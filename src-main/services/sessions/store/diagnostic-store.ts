import type { Diagnostic } from '../../../../src-shared/diagnostics/types';
import { jsonText } from '../../../../src-shared/json/tree';
import { parseJson } from '../../../../src-shared/json/values';
import { UintColumn } from './columns';
import type { SpoolFile } from './spool-file';

/**
 * A session's findings, kept on disk: each is written to the session's spool file as one line
 * of JSON and read back when a view asks for the list. A damaged stream can raise a finding
 * for every event, and holding them all as objects would cost more than the events' index.
 */
export class DiagnosticStore {
  private size = 0;
  /** Where the current list starts in the file (findings replaced by `clear` stay behind it). */
  private base: number;
  private readonly ends = new UintColumn();

  constructor(private readonly spool: SpoolFile) {
    this.base = spool.length;
  }

  get count(): number {
    return this.size;
  }

  add(diagnostic: Diagnostic): void {
    // The message after a line ending, as it is (its key holds its place in the JSON): a stream
    // can raise a finding on every event, and escaping each message into a JSON string was
    // most of what storing a finding cost.
    this.spool.appendText(`${jsonText({ ...diagnostic, message: 0 })}\n${diagnostic.message}`);
    this.ends.set(this.size, this.spool.length - this.base);
    this.size += 1;
  }

  /** Every finding from number `from` on, in order, read back from disk. */
  all(from = 0): Diagnostic[] {
    const out: Diagnostic[] = [];
    let start = from > 0 && from <= this.size ? this.ends.get(from - 1) : 0;
    for (let i = Math.max(0, from); i < this.size; i++) {
      const end = this.ends.get(i);
      const text = this.spool.readText(this.base + start, this.base + end);
      const lineEnd = text.indexOf('\n');
      if (lineEnd < 0) throw new Error(`The spool file's finding ${i} has no line ending before its message`);
      const parsed = parseJson(text.slice(0, lineEnd));
      if (!parsed.ok) throw new Error(`The spool file's finding ${i} does not parse: ${parsed.error}`);
      const diagnostic = parsed.value as Diagnostic;
      diagnostic.message = text.slice(lineEnd + 1);
      out.push(diagnostic);
      start = end;
    }
    return out;
  }

  /** Forgets every finding (the file keeps their bytes until the session closes). */
  clear(): void {
    this.size = 0;
    this.base = this.spool.length;
  }
}
