import { createUtf8Decoder } from '../text/utf8';
import { fileDiagnostic, type ImportDiagnosticSink } from './diagnostics';
import { parseHeader, parseRecord, RECORDING_MAGIC } from './format';
import { parseChunkLine } from './chunk-line';
import { createByteLineSplitter } from './lines';
import type { RecordingHeader, RecordingRecord } from './types';

/**
 * A push reader for recording files: bytes in, header and records out, with damage turned
 * into findings instead of errors. A line that is not a valid record is reported with its
 * line number and byte offset and skipped; reading resumes at the next line, because every
 * record is exactly one line. An incomplete last line is what a writer killed mid-write
 * leaves behind: it is reported as a torn tail.
 */

export interface RecordingReaderCallbacks {
  onHeader?: (header: RecordingHeader) => void;
  /** `offset` is the file offset of the record's line, `end` the offset just after its LF. */
  onRecord: (record: RecordingRecord, offset: number, end: number) => void;
  onDiagnostic: ImportDiagnosticSink;
}

export interface RecordingReader {
  push(bytes: Uint8Array): void;
  end(): void;
  /** The header, once its line has been read (null if it was damaged). */
  readonly header: RecordingHeader | null;
}

const decoder = createUtf8Decoder();

export function createRecordingReader(
  callbacks: RecordingReaderCallbacks,
  options: { maxLineBytes?: number } = {},
): RecordingReader {
  let header: RecordingHeader | null = null;
  let sawFirstLine = false;

  const handle = (text: string, offset: number, end: number, line: number, terminated: boolean): void => {
    if (!sawFirstLine) {
      sawFirstLine = true;
      const parsed = parseHeader(text);
      if (parsed.ok) {
        header = parsed.value;
        callbacks.onHeader?.(header);
        return;
      }
      // The magic prefix survives a header torn or garbled after its first bytes.
      if (text.startsWith(RECORDING_MAGIC)) {
        callbacks.onDiagnostic(
          fileDiagnostic(
            terminated ? 'recording.damaged-line' : 'recording.torn-tail',
            `The header line (byte ${offset}) is damaged: ${parsed.reason}. Records are read as version 1.`,
            offset,
            { line },
          ),
        );
        return;
      }
    }
    const parsed = parseRecord(text);
    if (parsed.kind === 'record') {
      callbacks.onRecord(parsed.record, offset, end);
      return;
    }
    if (!terminated) {
      callbacks.onDiagnostic(
        fileDiagnostic(
          'recording.torn-tail',
          `The last line (line ${line}, bytes ${offset}–${end}) is incomplete: the recorder stopped in the middle of writing it. Everything before it is intact; the partial record was skipped.`,
          offset,
          { line },
        ),
      );
      return;
    }
    if (parsed.kind === 'unknown') {
      callbacks.onDiagnostic(
        fileDiagnostic(
          'recording.unknown-record',
          `Line ${line} (byte ${offset}) is a "${parsed.type}" record, which this version does not know; skipped.`,
          offset,
          { line },
        ),
      );
      return;
    }
    callbacks.onDiagnostic(
      fileDiagnostic(
        'recording.damaged-line',
        `Line ${line} (byte ${offset}) is damaged: ${parsed.reason}. Skipped; reading continues with the next line.`,
        offset,
        { line },
      ),
    );
  };

  const isBlank = (bytes: Uint8Array, start: number, end: number): boolean => {
    for (let i = start; i < end; i++) if (bytes[i] !== 0x20 && bytes[i] !== 0x09) return false;
    return true;
  };

  const lines = createByteLineSplitter(
    {
      onLine(bytes, start, end, offset, line, next) {
        // Most lines are chunk records in the recorder's layout: read from their bytes.
        const chunk = sawFirstLine ? parseChunkLine(bytes, start, end) : null;
        if (chunk) callbacks.onRecord(chunk, offset, next);
        else if (!isBlank(bytes, start, end))
          handle(decoder.decode(bytes.subarray(start, end)), offset, next, line, true);
      },
      onOversize(offset, line, length) {
        callbacks.onDiagnostic(
          fileDiagnostic(
            'recording.damaged-line',
            `Line ${line} (byte ${offset}) is ${length} bytes long, over the limit for one record; skipped.`,
            offset,
            { line },
          ),
        );
      },
    },
    options,
  );

  return {
    get header() {
      return header;
    },
    push: (bytes) => lines.push(bytes),
    end() {
      const tail = lines.end();
      if (tail && !isBlank(tail.bytes, 0, tail.bytes.length)) {
        handle(decoder.decode(tail.bytes), tail.offset, tail.offset + tail.bytes.length, tail.line, false);
      }
    },
  };
}
