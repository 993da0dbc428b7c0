import { describe, expect, it } from 'vitest';
import { chunkings } from '../testing/chunking';
import { encodeUtf8 } from '../text/utf8';
import { decodeBase64 } from './base64';
import { createImportDiagnostics } from './diagnostics';
import { chunkRecord, headerLine, recordLine } from './format';
import { createByteLineSplitter } from './lines';
import { createRecordingReader } from './reader';
import { createRecordingIndexer } from './recording-index';
import type { RecordingRecord } from './types';

const header = headerLine({ createdAt: '2026-03-01T12:00:00.000Z', t: 1000, redacted: true });
const request = {
  method: 'POST',
  url: 'http://127.0.0.1/agent/run',
  headers: [['content-type', 'application/json']] as [string, string][],
  body: '{"user_prompt":"hi"}',
};

function sampleRecording(): string {
  return [
    header,
    recordLine({ type: 'leg', leg: 0, t: 1001, request }),
    recordLine({
      type: 'response',
      leg: 0,
      t: 1002,
      status: 200,
      statusText: 'OK',
      headers: [['content-type', 'text/event-stream']],
    }),
    recordLine(chunkRecord(0, 1003, encodeUtf8('data: {"a":1}\n\n'), 0, 0)),
    recordLine(chunkRecord(0, 1010, encodeUtf8('data: é€😀\n\n'), 1, 15)),
    recordLine({ type: 'end', leg: 0, t: 1011, reason: 'done' }),
    recordLine({
      type: 'action',
      t: 1020,
      action: { kind: 'tool-results', at: 1020, leg: 0, body: '{"tool_results":[]}' },
    }),
    recordLine({ type: 'leg', leg: 1, t: 1021, request }),
    recordLine(chunkRecord(1, 1030, encodeUtf8('data: [DONE]\n\n'), 0, 0)),
    recordLine({ type: 'end', leg: 1, t: 1031, reason: 'done' }),
  ].join('');
}

function read(chunks: Uint8Array[]) {
  const diagnostics = createImportDiagnostics();
  const records: { record: RecordingRecord; offset: number; end: number }[] = [];
  const reader = createRecordingReader({
    onRecord: (record, offset, end) => records.push({ record, offset, end }),
    onDiagnostic: diagnostics.report,
  });
  for (const chunk of chunks) reader.push(chunk);
  reader.end();
  return { header: reader.header, records, diagnostics: diagnostics.list };
}

describe('recording reader', () => {
  const bytes = encodeUtf8(sampleRecording());

  it.each(chunkings(bytes).map((c) => [c.name, c.chunks] as const))(
    'reads every record the same way when chunked %s',
    (_name, chunks) => {
      const { header: parsedHeader, records, diagnostics } = read(chunks);
      expect(diagnostics).toEqual([]);
      expect(parsedHeader).toMatchObject({
        format: 'agent-stream-inspector-recording',
        version: 1,
        t: 1000,
        redacted: true,
      });
      expect(records.map((r) => r.record.type)).toEqual([
        'leg',
        'response',
        'chunk',
        'chunk',
        'end',
        'action',
        'leg',
        'chunk',
        'end',
      ]);
      // Offsets point at the record's own line.
      for (const { record, offset, end } of records)
        expect(JSON.parse(new TextDecoder().decode(bytes.subarray(offset, end))) as unknown).toEqual(record);
      const second = records[3]?.record;
      expect(second?.type === 'chunk' && new TextDecoder().decode(decodeBase64(second.bytes) ?? undefined)).toBe(
        'data: é€😀\n\n',
      );
    },
  );

  it('reads chunks of every padding length', () => {
    const { records, diagnostics } = read([
      encodeUtf8(
        `${header}${['QUJD', 'QUI=', 'QQ=='].map((b) => `{"type":"chunk","leg":0,"t":1,"bytes":"${b}"}\n`).join('')}`,
      ),
    ]);
    expect(diagnostics.filter((d) => d.rule === 'recording.damaged-line')).toEqual([]);
    expect(
      records.map(
        (r) => r.record.type === 'chunk' && new TextDecoder().decode(decodeBase64(r.record.bytes) ?? undefined),
      ),
    ).toEqual(['ABC', 'AB', 'A']);
  });

  it('reports a torn last line and keeps everything before it', () => {
    const text = sampleRecording();
    const torn = text.slice(0, text.length - 20);
    const { records, diagnostics } = read([encodeUtf8(torn)]);
    expect(records).toHaveLength(8);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      rule: 'recording.torn-tail',
      severity: 'error',
      at: { fileOffset: torn.lastIndexOf('\n') + 1, line: 10 },
    });
    expect(diagnostics[0]?.message).toContain('incomplete');
  });

  it('reads a complete last record that lost only its LF, without a finding', () => {
    const text = sampleRecording();
    const { records, diagnostics } = read([encodeUtf8(text.slice(0, -1))]);
    expect(records).toHaveLength(9);
    expect(diagnostics).toEqual([]);
  });

  it('reports damage in the middle with its byte offset and reads on', () => {
    const lines = sampleRecording().split('\n');
    lines[3] = `${lines[3]?.slice(0, 30)}\u0000\u0001garbage`;
    const text = lines.join('\n');
    const damagedOffset = encodeUtf8(lines.slice(0, 3).join('\n')).length + 1;
    const { records, diagnostics } = read([encodeUtf8(text)]);
    expect(records).toHaveLength(8);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      rule: 'recording.damaged-line',
      severity: 'error',
      at: { fileOffset: damagedOffset, line: 4 },
    });
    expect(diagnostics[0]?.message).toContain(`byte ${damagedOffset}`);
  });

  it.each([
    ['a chunk without base64', '{"type":"chunk","leg":0,"t":1,"bytes":"%%%"}', 'recording.damaged-line'],
    [
      'a chunk whose bytes hold a character outside base64',
      '{"type":"chunk","leg":0,"t":1,"bytes":"QUJD%%%%"}',
      'recording.damaged-line',
    ],
    [
      'a chunk with padding in the middle',
      '{"type":"chunk","leg":0,"t":1,"bytes":"QQ=AQUJD"}',
      'recording.damaged-line',
    ],
    [
      'a chunk with three padding characters',
      '{"type":"chunk","leg":0,"t":1,"bytes":"Q==="}',
      'recording.damaged-line',
    ],
    ['a leg without request', '{"type":"leg","leg":0,"t":1}', 'recording.damaged-line'],
    ['an end with an unknown reason', '{"type":"end","leg":0,"t":1,"reason":"maybe"}', 'recording.damaged-line'],
    ['a JSON array', '[1,2]', 'recording.damaged-line'],
    ['a record type from a newer writer', '{"type":"bookmark","t":1,"label":"x"}', 'recording.unknown-record'],
    [
      'an action kind from a newer writer',
      '{"type":"action","t":1,"action":{"kind":"note","at":1}}',
      'recording.unknown-record',
    ],
  ])('reports %s', (_name, line, rule) => {
    const { diagnostics } = read([encodeUtf8(`${header}${line}\n`)]);
    expect(diagnostics.map((d) => d.rule)).toEqual([rule]);
  });

  it('skips an over-long line without buffering it', () => {
    const diagnostics = createImportDiagnostics();
    const records: RecordingRecord[] = [];
    const reader = createRecordingReader(
      { onRecord: (r) => records.push(r), onDiagnostic: diagnostics.report },
      { maxLineBytes: 200 },
    );
    reader.push(encodeUtf8(header));
    for (let i = 0; i < 50; i++) reader.push(new Uint8Array(64).fill(0x41));
    reader.push(encodeUtf8(`\n${recordLine({ type: 'end', leg: 0, t: 5, reason: 'closed' })}`));
    reader.end();
    expect(records).toHaveLength(1);
    expect(diagnostics.list).toMatchObject([
      { rule: 'recording.damaged-line', message: expect.stringContaining('3200 bytes long') as string },
    ]);
  });

  it('reports a damaged header and still reads the records', () => {
    const text = sampleRecording().replace('"version":1', '"version":"one"');
    const { header: parsed, records, diagnostics } = read([encodeUtf8(text)]);
    expect(parsed).toBeNull();
    expect(records).toHaveLength(9);
    expect(diagnostics.map((d) => d.rule)).toEqual(['recording.damaged-line']);
  });

  it.each(['\n', '\r\n'])('reads records with %j line endings', (ending) => {
    const text = sampleRecording().split('\n').join(ending);
    expect(read([encodeUtf8(text)]).records).toHaveLength(9);
  });
});

describe('line splitter', () => {
  it('gives absolute offsets across pushes and returns the unterminated tail', () => {
    const lines: [string, number, number, number][] = [];
    const splitter = createByteLineSplitter({
      onLine: (b, s, e, offset, line, next) =>
        lines.push([new TextDecoder().decode(b.subarray(s, e)), offset, line, next]),
    });
    for (const piece of ['ab', 'c\nde', 'f\r\n\ng', 'h']) splitter.push(encodeUtf8(piece));
    const tail = splitter.end();
    expect(lines).toEqual([
      ['abc', 0, 1, 4],
      ['def', 4, 2, 9],
      ['', 9, 3, 10],
    ]);
    expect(tail && new TextDecoder().decode(tail.bytes)).toBe('gh');
    expect(tail).toMatchObject({ offset: 10, line: 4 });
  });
});

describe('recording index', () => {
  const index = (text: string) => {
    const diagnostics = createImportDiagnostics();
    const indexer = createRecordingIndexer(diagnostics.report);
    const reader = createRecordingReader({
      onRecord: (r, o, e) => indexer.add(r, o, e),
      onDiagnostic: diagnostics.report,
    });
    reader.push(encodeUtf8(text));
    reader.end();
    return { index: indexer.finish(), diagnostics: diagnostics.list };
  };

  it('lists legs, outcomes, byte counts, chunk ranges and actions', () => {
    const text = sampleRecording();
    const { index: result, diagnostics } = index(text);
    expect(diagnostics).toEqual([]);
    expect(result.legs).toHaveLength(2);
    expect(result.legs[0]).toMatchObject({
      leg: 0,
      request,
      startedAt: 1001,
      response: { status: 200 },
      outcome: { reason: 'done' },
      chunks: 2,
      bytes: 15 + encodeUtf8('data: é€😀\n\n').length,
      firstChunkAt: 1003,
      lastChunkAt: 1010,
    });
    const leg0 = result.legs[0];
    expect(
      text
        .slice(leg0?.chunkStart, leg0?.chunkEnd)
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { type: string }).type),
    ).toEqual(['chunk', 'chunk']);
    expect(result.actions).toEqual([{ kind: 'tool-results', at: 1020, leg: 0, body: '{"tool_results":[]}' }]);
  });

  it('reports a leg that never ended and records for a leg never started, keeping their chunks', () => {
    const text = [
      header,
      recordLine(chunkRecord(0, 5, encodeUtf8('data: x\n\n'), 0, 0)),
      recordLine(chunkRecord(0, 6, encodeUtf8('data: y\n\n'), 1, 9)),
    ].join('');
    const { index: result, diagnostics } = index(text);
    expect(result.legs[0]).toMatchObject({ chunks: 2, bytes: 18 });
    expect(diagnostics.map((d) => d.rule)).toEqual(['recording.inconsistent', 'recording.unfinished-leg']);
  });

  it('does not report a well-formed recording as inconsistent', () => {
    expect(index(sampleRecording()).diagnostics).toEqual([]);
  });

  it('reports records after a leg ended and a far-off leg number as inconsistent', () => {
    const text = [
      header,
      recordLine({ type: 'leg', leg: 0, t: 1, request }),
      recordLine({ type: 'end', leg: 0, t: 2, reason: 'aborted', message: 'stopped by the user' }),
      recordLine(chunkRecord(0, 3, encodeUtf8('late'), 0, 0)),
      recordLine(chunkRecord(9999, 3, encodeUtf8('x'), 0, 0)),
    ].join('');
    const { index: result, diagnostics } = index(text);
    expect(result.legs).toHaveLength(1);
    expect(result.legs[0]).toMatchObject({ chunks: 1, outcome: { reason: 'aborted', message: 'stopped by the user' } });
    expect(diagnostics.map((d) => d.rule)).toEqual(['recording.inconsistent', 'recording.inconsistent']);
  });
});
