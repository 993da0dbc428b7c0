import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../../../src-shared/envelope/types';
import { DiagnosticStore } from './diagnostic-store';
import { EnvelopeTable } from './envelope-table';
import { FindingBadges } from './finding-badges';
import { FULL_HEAD_ROWS, FULL_TAIL_ROWS, SessionRows } from './session-rows';
import { SpoolFile } from './spool-file';

const envelope = (seq: number): Envelope => ({
  seq,
  frame: seq,
  agent: 'a',
  type: 'text',
  final: false,
  delta: `d${seq}`,
  extras: {},
  leg: 0,
  dialect: 'json',
  byteStart: 0,
  byteEnd: 0,
  receivedAt: seq,
});

function rowsOf(count: number) {
  const envelopes = new EnvelopeTable(() => undefined, new SpoolFile());
  for (let seq = 0; seq < count; seq++) envelopes.add(envelope(seq));
  const findings = new FindingBadges(
    new DiagnosticStore(new SpoolFile()),
    () => -1,
    () => {},
  );
  findings.add({ rule: 'sse.oversize-line', severity: 'error', message: 'm', at: { envelope: 3 }, seq: 0 });
  return new SessionRows(envelopes, findings);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('SessionRows', () => {
  it('reads a row with its badge, and nothing past the last envelope', () => {
    const rows = rowsOf(10);
    expect(rows.row(3)).toMatchObject({ seq: 3, type: 'text', diagnostics: 1, severity: 'error' });
    expect(rows.row(10)).toBeUndefined();
    expect(rows.rows(8, 5).map((r) => r.seq)).toEqual([8, 9]);
    expect(rows.columns(0, 10).strings.sort()).toEqual(['a', 'text']);
  });

  it("puts in a batch the session's first rows in full and, when it follows a stream, the batch's newest", () => {
    const rows = rowsOf(1000);
    const seqs = (start: number, end: number, follows: boolean) =>
      rows.batchRows(start, end, follows).map((r) => r.seq);
    expect(seqs(0, 1000, true)).toEqual([...range(0, FULL_HEAD_ROWS), ...range(1000 - FULL_TAIL_ROWS, 1000)]);
    expect(seqs(0, 1000, false)).toEqual(range(0, FULL_HEAD_ROWS));
    expect(seqs(900, 1000, true)).toEqual(range(900, 1000));
    expect(seqs(900, 1000, false)).toEqual([]);
  });
});
