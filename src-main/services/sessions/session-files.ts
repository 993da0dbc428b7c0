import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { concatBytes } from '../../../src-shared/bytes/held-bytes';
import type { DownloadFile, DownloadKind, ExportKind } from '../../../src-shared/contract/payloads';
import { FILE_FORMATS, fileNameFor } from '../../../src-shared/export/formats';
import { encodeBase64 } from '../../../src-shared/recording/base64';
import { encodeUtf8 } from '../../../src-shared/text/utf8';
import { buildHar, type HarExportLeg } from '../../../src-shared/export/har';
import { legHeader } from '../../../src-shared/export/sse-legs';
import { buildTranscript } from '../../../src-shared/export/transcript';
import { redactRequest, redactResponse } from '../../../src-shared/recording/redact';
import type { RecordedAction, RecordedRequest } from '../../../src-shared/recording/types';
import { envelopeLines } from './envelope-lines';
import { newExportCount, rawLegCounter, type ExportCount } from './export-count';
import { legBody, legOutcome, legWasDecoded } from './leg-export';
import { decodeAsOf } from '../../../src-shared/recording/format';
import { RECORDING_FLUSH_MS, type RecorderFactory } from './recorder-port';
import type { LegState } from './store/leg-state';
import type { SessionStore } from './store/session-store';
import { toBlockDetail } from './store/session-summary';

/**
 * Saving a session as a recording, and exporting what was decoded. Files are created, never
 * overwritten: an existing path is an error the user sees.
 */

function existsMessage(path: string): string {
  return `${path} already exists; choose another name (existing files are never overwritten).`;
}

/** What a running export is told: where to count, and whether to stop (its session was closed). */
export interface ExportRun {
  count: ExportCount;
  cancelled: () => boolean;
}

/** The export stops between two parts once its session is closed; the partial file is removed. */
const CANCELLED = 'The export stopped: its session was closed.';

/** Time between turns given back to the event loop, so the progress ticker runs during a long export. */
const TURN_MS = 20;

/** Resolves on the event loop's next turn at most every TURN_MS: cheap to await after every part. */
function turnTaker(): () => Promise<void> | undefined {
  let last = Date.now();
  return () => {
    const now = Date.now();
    if (now - last < TURN_MS) return undefined;
    last = now;
    return new Promise((resolve) => setImmediate(resolve));
  };
}

const byteLength = (part: string | Uint8Array): number =>
  typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;

/**
 * Writes the parts one after the other into a new file; returns the bytes written. A write
 * that fails or is cancelled removes the file it created (`wx`: never one that was there).
 */
async function writeNewFile(path: string, parts: Iterable<string | Uint8Array>, run: ExportRun): Promise<number> {
  const stream = createWriteStream(path, { flags: 'wx' });
  const turn = turnTaker();
  let created = false;
  try {
    await once(stream, 'open');
    created = true;
    for (const part of parts) {
      if (run.cancelled()) throw new Error(CANCELLED);
      run.count.written += byteLength(part);
      if (!stream.write(part)) await once(stream, 'drain');
      else await turn();
    }
    stream.end();
    await once(stream, 'finish');
  } catch (error) {
    stream.destroy();
    if (created) await rm(path, { force: true });
    if ((error as { code?: string }).code === 'EEXIST') throw new Error(existsMessage(path));
    // A store closed under the export fails in its own words: the user closed the session.
    throw run.cancelled() ? new Error(CANCELLED) : error;
  }
  return run.count.written;
}

/**
 * Each leg's bytes as received; a session of several legs is headed by their sizes
 * (src-shared/export/sse-legs.ts). Its size is known before the first byte is written.
 */
function rawStream(session: SessionStore, count: ExportCount): Iterable<string | Uint8Array> {
  const header = session.legs.length > 1 ? legHeader(session.legs.map((leg) => leg.raw.bytes)) : '';
  count.total = byteLength(header) + session.legs.reduce((sum, leg) => sum + leg.raw.bytes, 0);
  return rawParts(session, header, count);
}

function* rawParts(session: SessionStore, header: string, count: ExportCount): Generator<string | Uint8Array> {
  if (header) yield header;
  for (const [i, leg] of session.legs.entries()) {
    const envelopesEnd = session.legs[i + 1]?.firstEnvelope ?? session.envelopeCount;
    const counted = rawLegCounter(leg, envelopesEnd, count);
    let written = 0;
    for (let c = 0; c < leg.raw.count; c++) {
      const chunk = leg.raw.chunk(c);
      if (!chunk) continue;
      yield chunk.bytes;
      written += chunk.bytes.byteLength;
      counted(written);
    }
    counted(leg.raw.bytes);
  }
}

/** A format built in one piece from the whole session: every envelope is in it, and its size is known. */
function* builtWhole(build: () => string, session: SessionStore, count: ExportCount): Generator<string> {
  const text = build();
  count.total = byteLength(text);
  count.envelopes = session.envelopeCount;
  yield text;
}

/** A leg's request as a file may show it (secrets redacted); a file's own location for a file without one. */
function shownRequest(session: SessionStore, leg: LegState): RecordedRequest {
  if (leg.request) return redactRequest(leg.request);
  return {
    method: 'GET',
    url: session.source.kind === 'file' ? pathToFileURL(session.source.path).href : '',
    headers: [],
    body: null,
  };
}

function harLeg(session: SessionStore, leg: LegState): HarExportLeg {
  const { bytes, ...times } = legBody(leg);
  return {
    request: shownRequest(session, leg),
    response: redactResponse(leg.response),
    startedAt: leg.startedAt,
    ...times,
    body: bytes,
    end: legOutcome(leg),
    stream: legWasDecoded(leg),
    ...decodeAsOf(session.formatChoice),
  };
}

/** What a HAR says wrote it. */
export const HAR_CREATOR = { name: 'Agent Stream Inspector', version: '1' };

/**
 * An export's contents, in parts: `envelopes-ndjson` one decoded envelope per line;
 * `blocks-json` the reconstructed blocks with contents; `raw-sse` the stream bytes exactly as
 * received, legs one after the other under a header naming their sizes; `har` every leg as a HAR entry (docs: src-shared/export/har.ts);
 * `transcript-md` the conversation as Markdown.
 */
export function exportParts(
  session: SessionStore,
  kind: ExportKind,
  count: ExportCount = newExportCount(session),
): Iterable<string | Uint8Array> {
  switch (kind) {
    case 'envelopes-ndjson':
      return envelopeLines(session, count);
    case 'blocks-json':
      return builtWhole(() => `${JSON.stringify(session.blocks().map(toBlockDetail), null, 2)}\n`, session, count);
    case 'raw-sse':
      return rawStream(session, count);
    case 'har':
      return builtWhole(
        () => buildHar({ creator: HAR_CREATOR, legs: session.legs.map((leg) => harLeg(session, leg)) }),
        session,
        count,
      );
    case 'transcript-md':
      return builtWhole(
        () => buildTranscript({ title: session.title, agents: session.agents(), blocks: session.blocks() }),
        session,
        count,
      );
  }
}

/** Writes an export to a new file, counting its progress in `run`. */
export async function exportSession(
  session: SessionStore,
  kind: ExportKind,
  path: string,
  run: ExportRun = { count: newExportCount(session), cancelled: () => false },
): Promise<number> {
  return writeNewFile(path, exportParts(session, kind, run.count), run);
}

/**
 * Writes the session as a recording (the documented format), from the bytes kept in memory:
 * each leg's request (redacted by the recorder), response, every chunk with its receive time,
 * the user's tool-results actions before the legs they started, and each leg's end.
 */
export async function saveRecording(
  session: SessionStore,
  actions: readonly RecordedAction[],
  path: string,
  createRecorder: RecorderFactory,
): Promise<void> {
  const recorder = await createRecorder(path, {
    flushIntervalMs: RECORDING_FLUSH_MS,
    redact: true,
    ...decodeAsOf(session.formatChoice),
  });
  try {
    for (const leg of session.legs) {
      for (const action of actions) if (action.leg === leg.index - 1) recorder.action(action);
      // Unredacted: the recorder redacts what it writes.
      const recorded = recorder.startLeg(leg.request ?? shownRequest(session, leg));
      const stream = legWasDecoded(leg);
      if (leg.response) recorder.response(recorded, leg.response, stream);
      const body = stream ? leg.raw : leg.rejected;
      for (let i = 0; i < body.count; i++) {
        const chunk = body.chunk(i);
        if (chunk) recorder.chunk(recorded, chunk.bytes, chunk.receivedAt);
      }
      recorder.endLeg(recorded, legOutcome(leg));
    }
  } finally {
    await recorder.close();
  }
}

/**
 * The largest download the browser host hands the page: the bytes cross the WebSocket as
 * base64 in one message. Larger sessions are saved with the CLI or the desktop app.
 */
export const MAX_DOWNLOAD_BYTES = 128 * 1024 * 1024;

function tooLarge(what: string): Error {
  return new Error(
    `${what} is larger than ${MAX_DOWNLOAD_BYTES / 1024 / 1024} MB, too large to download through the browser; save it with the desktop app or \`stream-inspector record\`.`,
  );
}

/**
 * A recording or an export as bytes for a download (the browser host has no save dialog); an
 * export counts its progress in `run`.
 */
export async function downloadFile(
  session: SessionStore,
  actions: readonly RecordedAction[],
  kind: DownloadKind,
  createRecorder: RecorderFactory | undefined,
  run: ExportRun = { count: newExportCount(session), cancelled: () => false },
): Promise<DownloadFile> {
  const format = FILE_FORMATS[kind];
  const bytes =
    kind === 'recording'
      ? await recordingBytes(session, actions, createRecorder)
      : await exportBytes(session, kind, run);
  return {
    fileName: fileNameFor(session.title, kind),
    mimeType: format.mimeType,
    bytes: bytes.byteLength,
    base64: encodeBase64(bytes),
  };
}

async function exportBytes(session: SessionStore, kind: ExportKind, run: ExportRun): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const turn = turnTaker();
  try {
    for (const part of exportParts(session, kind, run.count)) {
      if (run.cancelled()) throw new Error(CANCELLED);
      const bytes = typeof part === 'string' ? encodeUtf8(part) : part;
      run.count.written += bytes.byteLength;
      if (run.count.written > MAX_DOWNLOAD_BYTES) throw tooLarge(`The ${FILE_FORMATS[kind].label.toLowerCase()}`);
      parts.push(bytes);
      await turn();
    }
  } catch (error) {
    throw run.cancelled() ? new Error(CANCELLED) : error;
  }
  return concatBytes(parts);
}

/** The recording is written by the recorder (the one format writer, redacting) to a temporary file, then read back. */
async function recordingBytes(
  session: SessionStore,
  actions: readonly RecordedAction[],
  createRecorder: RecorderFactory | undefined,
): Promise<Uint8Array> {
  if (!createRecorder) throw new Error('Recording is not available in this host');
  const dir = await mkdtemp(join(tmpdir(), 'stream-inspector-download-'));
  try {
    const path = join(dir, 'session.recording');
    await saveRecording(session, actions, path, createRecorder);
    const bytes = await readFile(path);
    if (bytes.byteLength > MAX_DOWNLOAD_BYTES) throw tooLarge('The recording');
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
