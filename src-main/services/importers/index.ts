import { fileDiagnostic } from '../../../src-shared/recording/diagnostics';
import { CHECK_REPORT_WHAT, reportedRecordings } from '../../../src-shared/recording/check-report';
import { sniffSource, type SniffResult } from '../../../src-shared/recording/sniff';
import { openEnvelopeExport } from './envelope-export-source';
import { createFindings } from './findings';
import { openHar } from './har-source';
import { openItems } from './items-source';
import { openRecording } from './recording-source';
import { nodeSourceFs, type SourceFs } from './source-file';
import { fileErrorText } from '../storage/file-error';
import { openSseCapture } from './sse-source';
import { CheckReportError, ImportError, type ImportedSource, type OpenSourceOptions } from './types';

export * from './types';
export { bytesSourceFs, nodeSourceFs, type SourceFs } from './source-file';

/** How much of the file is looked at to recognise it, at first and at most. */
const SNIFF_FIRST = 64 * 1024;
const SNIFF_MAX = 16 * 1024 * 1024;
/** A check report is one small XML file per check run; one larger than this is not read whole. */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The error for a check report: the recordings it names, read from the whole file (the head
 * sniffed holds only its first suites), once, for the refusal's message and for what opening
 * it by path opens.
 */
async function checkReport(
  path: string,
  size: number,
  whole: () => Promise<Uint8Array> | Uint8Array,
): Promise<ImportError> {
  if (size > REPORT_MAX_BYTES)
    return new ImportError(
      'unrecognised',
      path,
      `${path}: ${CHECK_REPORT_WHAT} larger than ${REPORT_MAX_BYTES} bytes, not read`,
    );
  return new CheckReportError(path, reportedRecordings(new TextDecoder().decode(await whole())));
}

async function sniffFile(path: string, fs: SourceFs): Promise<{ result: SniffResult; size: number }> {
  const file = await fs.open(path).catch((error: unknown) => {
    // A file gone from the recent list, or a path mistyped: said as the CLI says it.
    const text = fileErrorText(error);
    throw text === undefined ? error : new ImportError('unreadable', path, text);
  });
  try {
    let length = SNIFF_FIRST;
    for (;;) {
      const head = await file.read(0, Math.min(length, file.size));
      const complete = head.length >= file.size;
      const result = sniffSource(head, complete || length >= SNIFF_MAX);
      if (!result.ok && !result.needMore && result.checkReport)
        throw await checkReport(path, file.size, () => (complete ? head : file.read(0, file.size)));
      if (result.ok || !result.needMore) return { result, size: file.size };
      length *= 4;
    }
  } finally {
    await file.close();
  }
}

/**
 * Opens a file the user already has as a source of legs of bytes for the shared decoder:
 * a recording, a raw SSE capture (or a line-framed one: the AI SDK's v4 data stream), NDJSON or
 * a JSON array of envelopes or Anthropic events (this inspector's envelope export among them), a
 * streamed JSON array of API responses, or a HAR file. The kind is recognised from the content,
 * not the name. Files are streamed,
 * never read into one string. Rejects with an ImportError naming what was expected when the
 * file is none of these.
 */
export async function openSource(path: string, options: OpenSourceOptions = {}): Promise<ImportedSource> {
  const fs = options.fs ?? nodeSourceFs;
  const findings = createFindings(options.onDiagnostic);
  const { result, size } = await sniffFile(path, fs);
  if (!result.ok) {
    // needMore after SNIFF_MAX bytes: the first line or item alone is larger than that.
    const message = result.needMore ? `its first line or item is longer than ${SNIFF_MAX} bytes` : result.message;
    throw new ImportError('unrecognised', path, `${path}: ${message}`);
  }
  if (options.checkReportOnly) throw new ImportError('unrecognised', path, `${path}: not ${CHECK_REPORT_WHAT}`);
  switch (result.kind) {
    case 'recording':
      return openRecording(path, fs, findings, options.stream);
    case 'sse':
      if (result.skipped)
        findings.report(
          fileDiagnostic('import.skipped-prefix', `Decoded from byte ${result.bodyOffset}: ${result.skipped}.`, 0),
        );
      return openSseCapture(path, fs, findings, size, result.bodyOffset, result.response);
    case 'json-stream':
      return openSseCapture(path, fs, findings, size, result.bodyOffset, result.response, 'json-stream');
    case 'lines':
      return openSseCapture(path, fs, findings, size, result.bodyOffset, result.response, 'lines');
    case 'har':
      return openHar(path, fs, findings, size, result.bodyOffset, options.harEntry);
    case 'ndjson-envelopes':
      return (
        (await openEnvelopeExport(path, fs, findings, size, result.bodyOffset)) ??
        openItems(path, fs, findings, size, result.kind, 'ndjson', result.bodyOffset)
      );
    case 'json-envelopes':
    case 'anthropic-events':
    case 'ndjson-events':
      return openItems(path, fs, findings, size, result.kind, result.container ?? 'ndjson', result.bodyOffset);
  }
}
