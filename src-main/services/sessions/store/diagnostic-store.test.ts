import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../src-shared/diagnostics/types';
import { DiagnosticStore } from './diagnostic-store';
import { SpoolFile } from './spool-file';

const finding = (seq: number, message: string): Diagnostic => ({
  rule: 'sse.oversize-line',
  severity: 'warning',
  message,
  at: { frame: seq, byteStart: seq, byteEnd: seq + 1 },
  seq,
});

describe('DiagnosticStore', () => {
  it('reads back every finding in order, or those from a number on, and starts a new list after clear', () => {
    const store = new DiagnosticStore(new SpoolFile());
    const first = [
      finding(0, 'a "quoted" line'),
      finding(1, 'multi-byte 世界 🙂'),
      finding(2, 'x'.repeat(100_000)),
      finding(3, 'two lines:\nthe second {"at": 1}\n'),
      finding(4, ''),
    ];
    for (const d of first) store.add(d);
    expect(store.count).toBe(5);
    expect(store.all()).toEqual(first);
    // Read back with its keys in their order: whatever writes the list as JSON writes it the same.
    expect(store.all().map((d) => JSON.stringify(d))).toEqual(first.map((d) => JSON.stringify(d)));
    expect(store.all(1)).toEqual(first.slice(1));
    expect(store.all(5)).toEqual([]);
    store.clear();
    expect(store.all()).toEqual([]);
    store.add(finding(0, 'after'));
    expect(store.all()).toEqual([finding(0, 'after')]);
  });

  it('says which finding of a damaged spool file cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'findings-'));
    const fd = openSync(join(dir, 'findings.spool'), 'w+');
    try {
      const store = new DiagnosticStore(new SpoolFile('findings', () => ({ fd, path: null })));
      const first = finding(0, 'kept');
      store.add(first);
      // Longer than the write buffer: both are on disk at once, where the damage goes.
      store.add(finding(1, 'y'.repeat(100_000)));
      const secondStart = Buffer.byteLength(`${JSON.stringify({ ...first, message: 0 })}\n${first.message}`);
      writeSync(fd, 'not json', secondStart);
      expect(() => store.all()).toThrow(/^The spool file's finding 1 does not parse: /);
      // The first finding's line ending gone: said as such.
      writeSync(fd, ' ', Buffer.byteLength(JSON.stringify({ ...first, message: 0 })));
      expect(() => store.all()).toThrow(/^The spool file's finding 0 has no line ending before its message$/);
    } finally {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
