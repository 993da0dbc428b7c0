import { holdsContent } from '../../../../src-shared/reconstruct/block-content';
import { holdsEnvelopeList, pushEnvelope } from '../../../../src-shared/reconstruct/envelope-list';
import { describe, expect, it } from 'vitest';
import type { SessionSource } from '../../../../src-shared/contract/payloads';
import { ROW_FLAG, rowFlags } from '../../../../src-shared/contract/row-columns';
import { expandColumns } from '../../../../src-shared/testing/row-columns';
import { decodeBytes } from '../../../../src-shared/pipeline/session-decoder';
import { listSseFixtures, readFixture } from '../../../testing/fixtures';
import { createRawChunks } from './raw-chunks';
import { SpoolFile } from './spool-file';
import { preview, toBlockDetail } from './session-summary';
import { createSessionStore } from './session-store';
import { FULL_HEAD_ROWS, FULL_TAIL_ROWS } from './session-rows';

/** Feeds `bytes` to a fresh session in pieces of a few sizes (deterministic, no randomness). */
function sessionOf(bytes: Uint8Array, source: SessionSource = { kind: 'file', path: '/x', importer: 'sse' }) {
  const data = createSessionStore({ id: 's1', title: 't', source, createdAt: 0 });
  const leg = data.openLeg('file', null, 0).index;
  const sizes = [1, 7, 300, 4096, 13];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] as number;
    data.push(leg, bytes.subarray(at, at + size), at);
    at += size;
  }
  data.endLeg(leg, { reason: 'complete' });
  data.finish();
  return data;
}

/** A live session with one leg open, counting the changes it reports. */
function liveSessionCountingChanges() {
  const counted = {
    changes: 0,
    data: createSessionStore({
      id: 's',
      title: 't',
      source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
      createdAt: 0,
      onChange: () => (counted.changes += 1),
    }),
    leg: 0,
  };
  counted.leg = counted.data.openLeg('run', null, 0).index;
  return counted;
}

describe('session store', () => {
  it('takes a chunk in once: pushed bytes reach the indexes through the decoder, and a batch only reads them', () => {
    const counted = liveSessionCountingChanges();
    const { data, leg } = counted;
    expect(data.takeBatch(100)).toBeNull();
    data.push(leg, new TextEncoder().encode('data: {"type":"text","agent":"a","final":false,"delta":"hi"}\n\n'), 1);
    expect(counted.changes).toBeGreaterThan(0);
    expect(data.envelopeCount).toBe(1);
    expect(data.legs[0]?.raw.bytes).toBeGreaterThan(0);
    const batch = data.takeBatch(100);
    expect(batch).toMatchObject({ start: 0, total: 1 });
    expect(batch?.rows.map((r) => r.seq)).toEqual([0]);
    // Taking a batch changes nothing the indexes hold, and nothing is left to take.
    expect(data.envelopeCount).toBe(1);
    expect(data.takeBatch(100)).toBeNull();
  });

  it("reports a chunk that adds many envelopes as one change, a chunk with no whole event as none, a leg's end at once", () => {
    const counted = liveSessionCountingChanges();
    const { data, leg } = counted;
    const event = (i: number) => `data: {"type":"text","agent":"a","final":false,"delta":"d${i}"}\n\n`;
    const fifty = Array.from({ length: 50 }, (_, i) => event(i)).join('');
    data.push(leg, new TextEncoder().encode(fifty), 1);
    expect(data.envelopeCount).toBe(50);
    expect(counted.changes).toBe(1);
    data.push(leg, new TextEncoder().encode('data: {"type":"text","ag'), 2);
    expect(counted.changes).toBe(1);
    data.push(leg, new TextEncoder().encode('ent":"a","final":true,"delta":""}\n\n'), 3);
    expect(data.envelopeCount).toBe(51);
    expect(counted.changes).toBe(2);
    // A leg's end is reported as it happens (what the decoder's end found, then the end itself).
    data.endLeg(leg, { reason: 'complete' });
    expect(counted.changes).toBeGreaterThan(2);
    // Every change reached the batch.
    expect(data.takeBatch(100)).toMatchObject({ start: 0, total: 51 });
  });

  it.each(listSseFixtures())('keeps %s as a compact index that gives back every envelope and frame exactly', (name) => {
    const bytes = readFixture(name);
    const data = sessionOf(bytes);
    const expected = decodeBytes(bytes);
    expect(data.envelopeCount).toBe(expected.envelopes.length);
    for (const envelope of expected.envelopes) {
      // Receive times differ (the test feeds offsets as times); everything else is identical.
      expect({ ...data.envelope(envelope.seq), receivedAt: 0 }).toEqual({ ...envelope, receivedAt: 0 });
    }
    for (const frame of expected.frames[0] ?? []) {
      const stored = data.frame(0, frame.seq);
      expect({ ...stored, receivedAt: 0 }).toEqual({
        ...frame,
        leg: 0,
        receivedAt: 0,
        chunkFirst: stored?.chunkFirst,
        chunkLast: stored?.chunkLast,
      });
    }
  });

  it('gives back a frame that begins with a BOM mid-stream as it was framed: the BOM is content there, not skipped', () => {
    const bytes = new TextEncoder().encode('\uFEFFevent: e\ndata: a\n\n\uFEFFdata: b\nevent: f\ndata: c\n\n');
    const data = sessionOf(bytes);
    const expected = decodeBytes(bytes).frames[0] ?? [];
    expect(expected).toHaveLength(2);
    for (const frame of expected) {
      const { event, data: text, dataLines, maxDataLineBytes } = frame;
      expect(data.frame(0, frame.seq)).toMatchObject({ event, data: text, dataLines, maxDataLineBytes });
    }
  });

  it('counts a diagnostic on the row of the frame it points at, even when it came before the envelope', () => {
    // An oversize data line is reported while framing, before its envelope exists.
    const long = 'x'.repeat(3000);
    const data = sessionOf(
      new TextEncoder().encode(`data: {"type":"text","agent":"a","final":false,"delta":"${long}"}\n\ndata: [DONE]\n\n`),
    );
    const row = data.row(0);
    expect(row?.diagnostics).toBeGreaterThan(0);
    expect(data.diagnostics().some((d) => d.rule === 'sse.oversize-line' && d.at.frame === 0)).toBe(true);
  });

  it('sends each row once in batches, then only what changed', () => {
    const data = sessionOf(readFixture('frontend_tools.json.sse'));
    const first = data.takeBatch(5);
    expect(first).toMatchObject({ start: 0, total: data.envelopeCount });
    expect(first?.rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4]);
    const second = data.takeBatch(100_000);
    expect(second?.start).toBe(5);
    expect(second?.rows.at(-1)?.seq).toBe(data.envelopeCount - 1);
    expect(data.takeBatch(10)).toBeNull();
  });

  it("sends every new row in compact columns, and in full only the session's first rows and (streaming) each batch's newest", () => {
    const events = Array.from(
      { length: 3000 },
      (_, i) =>
        `data: {"type":"${i % 7 === 0 ? 'thinking' : 'text'}","agent":"${i % 2 === 0 ? 'a' : 'b'}","final":false,"delta":"d${i}"}\n\n`,
    );
    // An oversize line gives row 1000 a finding, which its flags carry.
    events[1000] = `data: {"type":"text","agent":"a","final":true,"delta":"${'x'.repeat(3000)}"}\n\n`;
    const bytes = new TextEncoder().encode(events.join(''));
    const data = sessionOf(bytes, { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' });
    const first = data.takeBatch(2000);
    const second = data.takeBatch(5000);
    expect(data.takeBatch(5000)).toBeNull();

    const fullSeqs = (batch: typeof first) => batch?.rows.map((r) => r.seq) ?? [];
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
    expect(fullSeqs(first)).toEqual([...range(0, FULL_HEAD_ROWS), ...range(2000 - FULL_TAIL_ROWS, 2000)]);
    expect(fullSeqs(second)).toEqual(range(3000 - FULL_TAIL_ROWS, 3000));
    for (const batch of [first, second]) {
      const full = new Map(batch?.rows.map((r) => [r.seq, r]));
      for (const row of batch?.rows ?? []) expect(row).toEqual(data.row(row.seq));
      for (const indexed of expandColumns(batch?.start ?? -1, batch!.columns)) {
        const row = data.row(indexed.seq)!;
        expect(indexed).toEqual({
          seq: row.seq,
          receivedAt: row.receivedAt,
          agent: row.agent,
          type: row.type,
          flags: rowFlags(row),
        });
        if (full.has(indexed.seq)) expect(full.get(indexed.seq)).toEqual(row);
      }
    }
    expect(first?.columns.strings.sort()).toEqual(['a', 'b', 'text', 'thinking']);
    // A file's table stays at the top while it loads: only its first rows in full.
    const file = sessionOf(bytes);
    expect(fullSeqs(file.takeBatch(2000))).toEqual(range(0, FULL_HEAD_ROWS));
    expect(fullSeqs(file.takeBatch(5000))).toEqual([]);
    expect(expandColumns(0, first!.columns)[1000]!.flags & ROW_FLAG.hasFindings).toBe(ROW_FLAG.hasFindings);
  });

  it('carries no blocks or findings in batches, only how far they have got; views fetch what changed', () => {
    const data = sessionOf(readFixture('example_1.json.sse'));
    expect(data.diagnostics().length).toBeGreaterThan(5);
    const batch = data.takeBatch(100_000);
    expect(batch).not.toHaveProperty('blocks');
    expect(batch).not.toHaveProperty('diagnostics');
    expect(batch?.diagnosticCount).toBe(data.diagnostics().length);
    expect(data.batchPending).toBe(false);

    const all = data.blockChanges(0);
    expect(all.blocks.map((b) => b.id)).toEqual(data.blocks().map((b) => b.id));
    expect(all.revision).toBe(batch?.blockRevision);
    expect(data.blockChanges(all.revision)).toEqual({ revision: all.revision, blocks: [] });

    const findings = data.diagnosticsSince(0, 0);
    expect(findings.diagnostics.map((d) => d.seq)).toEqual(data.diagnostics().map((d) => d.seq));
    expect(data.diagnosticsSince(3, 0)).toMatchObject({ from: 3, resets: 0 });
    expect(data.diagnosticsSince(3, 0).diagnostics[0]?.seq).toBe(3);
  });

  it('sends the changed blocks only, after the revision a client holds', () => {
    const data = createSessionStore({
      id: 's1',
      title: 't',
      source: { kind: 'live', method: 'GET', url: 'http://127.0.0.1/' },
      createdAt: 0,
    });
    const leg = data.openLeg('run', null, 0).index;
    const text = (delta: string) =>
      new TextEncoder().encode(`data: {"type":"text","agent":"a","final":false,"delta":"${delta}"}\n\n`);
    data.push(leg, text('one'), 0);
    const first = data.blockChanges(0);
    expect(first.blocks.map((b) => [b.id, b.length])).toEqual([[0, 3]]);
    expect(data.blockChanges(first.revision).blocks).toEqual([]);
    data.push(leg, text(' two'), 1);
    const next = data.blockChanges(first.revision);
    expect(next.revision).toBeGreaterThan(first.revision);
    expect(next.blocks.map((b) => [b.id, b.length])).toEqual([[0, 7]]);
  });
});

describe('raw chunks', () => {
  it.each([
    ['in memory', () => createRawChunks()],
    ['on disk', () => createRawChunks(new SpoolFile())],
  ])('%s: slices any byte range across chunk boundaries and names the chunks it spans', (_, create) => {
    const raw = create();
    raw.append(new TextEncoder().encode('abc'), 10);
    raw.append(new TextEncoder().encode('defg'), 20);
    raw.append(new Uint8Array(0), 25);
    raw.append(new TextEncoder().encode('h'), 30);
    expect(new TextDecoder().decode(raw.slice(2, 8))).toBe('cdefgh');
    expect(new TextDecoder().decode(raw.slice(5, 100))).toBe('fgh');
    expect(raw.slice(9, 12)).toHaveLength(0);
    expect(raw.overlapping(2, 4)).toEqual([
      { index: 0, byteStart: 0, byteEnd: 3, receivedAt: 10 },
      { index: 1, byteStart: 3, byteEnd: 7, receivedAt: 20 },
    ]);
    expect(raw.count).toBe(3);
    expect(raw.bytes).toBe(8);
  });

  it('extends the last chunk with the next part of it, without copying adjacent parts', () => {
    const chunk = new TextEncoder().encode('abcdefgh');
    const raw = createRawChunks();
    raw.append(new TextEncoder().encode('xy'), 5);
    raw.append(chunk.subarray(0, 3), 10);
    raw.extendLast(chunk.subarray(3, 5));
    raw.extendLast(chunk.subarray(5));
    expect(raw.count).toBe(2);
    expect(raw.bytes).toBe(10);
    expect(raw.chunk(1)?.bytes.buffer).toBe(chunk.buffer);
    expect(new TextDecoder().decode(raw.chunk(1)?.bytes)).toBe('abcdefgh');
    // A part from another buffer is copied in.
    raw.extendLast(new TextEncoder().encode('!'));
    expect(new TextDecoder().decode(raw.slice(0, 100))).toBe('xyabcdefgh!');
    expect(raw.overlapping(0, 100)).toEqual([
      { index: 0, byteStart: 0, byteEnd: 2, receivedAt: 5 },
      { index: 1, byteStart: 2, byteEnd: 11, receivedAt: 10 },
    ]);
    expect(() => createRawChunks().extendLast(chunk)).toThrow('no chunk to extend');
  });

  it('on disk: extends the last chunk, and keeps each leg of a session as its own run of the shared file', () => {
    const spool = new SpoolFile();
    const first = createRawChunks(spool);
    first.append(new TextEncoder().encode('xy'), 5);
    first.append(new TextEncoder().encode('abc'), 10);
    first.extendLast(new TextEncoder().encode('de'));
    const second = createRawChunks(spool);
    second.append(new TextEncoder().encode('12345'), 20);
    expect(new TextDecoder().decode(first.slice(0, 100))).toBe('xyabcde');
    expect(new TextDecoder().decode(first.chunk(1)?.bytes)).toBe('abcde');
    expect(new TextDecoder().decode(second.slice(1, 3))).toBe('23');
    expect(first.overlapping(0, 100)).toEqual([
      { index: 0, byteStart: 0, byteEnd: 2, receivedAt: 5 },
      { index: 1, byteStart: 2, byteEnd: 7, receivedAt: 10 },
    ]);
    // The first leg cannot grow once another leg wrote after it.
    expect(() => first.append(new Uint8Array(1), 30)).toThrow(/Two legs/);
    expect(() => createRawChunks(spool).extendLast(new Uint8Array(1))).toThrow('no chunk to extend');
  });
});

describe('block contents on disk', () => {
  it.each(listSseFixtures())(
    '%s: every block reads back the content the decoder built, finished ones from disk',
    (name) => {
      const bytes = readFixture(name);
      const data = sessionOf(bytes);
      const expected = decodeBytes(bytes).blocks;
      expect(data.blocks().map((b) => b.content)).toEqual(expected.map((b) => b.content));
      expect(data.blocks().map((b) => data.blockSummary(b).length)).toEqual(expected.map((b) => b.content.length));
      expect(data.blocks().map((b) => data.blockSummary(b).preview)).toEqual(expected.map((b) => preview(b.content)));
      const onDisk = data.blocks().filter((b) => !holdsContent(b));
      const finishedText = data.blocks().filter((b) => b.status !== 'open' && b.kind === 'text' && b.content !== '');
      expect(onDisk.length).toBeGreaterThanOrEqual(finishedText.length);
      // A plain text block's one segment does not keep a copy in memory either.
      for (const block of finishedText) {
        expect(onDisk).toContain(block);
        const only = block.segments?.length === 1 ? block.segments[0] : undefined;
        if (only?.type === 'text' && only.content === block.content) expect(holdsContent(only)).toBe(false);
      }
      data.dispose();
    },
  );

  it('rebuilds a replayed block and the abandoned first attempt from their own deltas', () => {
    const bytes = readFixture('retry_midstream.json.sse');
    const data = sessionOf(bytes);
    const expected = decodeBytes(bytes).blocks;
    const abandoned = data.blocks().filter((b) => b.status === 'abandoned');
    expect(abandoned.length).toBeGreaterThan(0);
    for (const block of abandoned) {
      expect(holdsContent(block)).toBe(false);
      expect(block.content).toBe(expected[block.id]?.content);
    }
  });
});

describe('block envelope lists as ranges', () => {
  it.each(listSseFixtures())(
    '%s: every block lists the envelopes the decoder gave it, finished ones rebuilt from the envelope → block column',
    (name) => {
      const bytes = readFixture(name);
      const data = sessionOf(bytes);
      const expected = decodeBytes(bytes).blocks;
      expect(data.blocks().map((b) => [...b.envelopes])).toEqual(expected.map((b) => b.envelopes));
      expect(data.blocks().map((b) => toBlockDetail(b).envelopes)).toEqual(expected.map((b) => b.envelopes));
      expect(data.blocks().map((b) => data.blockSummary(b).envelopeCount)).toEqual(
        expected.map((b) => b.envelopes.length),
      );
      // Only a retried block's replay keeps an array: the column gives its first envelopes to the abandoned attempt.
      for (const block of data.blocks())
        if (block.status !== 'open' && holdsEnvelopeList(block)) expect(block.replaces, name).toBeDefined();
      data.dispose();
    },
  );

  it('a citation after its text block finished joins the list, which becomes a range again', () => {
    const bytes = readFixture('probe_citations.json.sse');
    const data = sessionOf(bytes);
    const cited = data.blocks().find((b) => b.kind === 'text' && b.citations.length > 0);
    expect(cited?.envelopes.length).toBeGreaterThan(cited?.citations.length ?? 0);
    expect(cited?.envelopes).toEqual(expect.arrayContaining(cited?.citations.map((c) => c.envelope) ?? [-1]));
    expect(cited && holdsEnvelopeList(cited)).toBe(false);
    if (!cited) return;
    // A rebuilt list is read-only; adding to it takes the list back into the block.
    const before = [...cited.envelopes];
    expect(() => (cited.envelopes as number[]).push(999)).toThrow();
    pushEnvelope(cited, 999);
    expect(cited.envelopes).toEqual([...before, 999]);
    expect(holdsEnvelopeList(cited)).toBe(true);
    data.dispose();
  });
});
