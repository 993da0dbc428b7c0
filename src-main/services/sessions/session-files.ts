import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { pathToFileURL } from 'node:url';
import type { ExportKind } from '../../../src-shared/contract/payloads';
import type { RecordedAction } from '../../../src-shared/recording/types';
import { RECORDING_FLUSH_MS, recordedOutcome, type RecorderFactory } from './recorder-port';
import type { SessionData } from './session-data';
import { toBlockDetail, toEnvelopeDetail } from './views';

/**
 * Saving a session as a recording, and exporting what was decoded. Files are created, never
 * overwritten: an existing path is an error the user sees.
 */

function existsMessage(path: string): string {
  return `${path} already exists; choose another name (existing files are never overwritten).`;
}

/** Writes the parts one after the other into a new file; returns the bytes written. */
async function writeNewFile(path: string, parts: Iterable<string | Uint8Array>): Promise<number> {
  const stream = createWriteStream(path, { flags: 'wx' });
  let bytes = 0;
  try {
    await once(stream, 'open');
    for (const part of parts) {
      bytes += typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength;
      if (!stream.write(part)) await once(stream, 'drain');
    }
    stream.end();
    await once(stream, 'finish');
  } catch (error) {
    stream.destroy();
    if ((error as { code?: string }).code === 'EEXIST') throw new Error(existsMessage(path));
    throw error;
  }
  return bytes;
}

function* envelopeLines(session: SessionData): Generator<string> {
  for (let seq = 0; seq < session.envelopeCount; seq++) {
    const envelope = session.envelope(seq);
    if (envelope) yield `${JSON.stringify(toEnvelopeDetail(envelope))}\n`;
  }
}

function* rawStream(session: SessionData): Generator<Uint8Array> {
  for (const leg of session.legs) {
    for (let i = 0; i < leg.raw.count; i++) {
      const chunk = leg.raw.chunk(i);
      if (chunk) yield chunk.bytes;
    }
  }
}

/**
 * `envelopes-ndjson`: one decoded envelope per line; `blocks-json`: the reconstructed blocks
 * with contents; `raw-sse`: the stream bytes exactly as received, legs one after the other.
 */
export async function exportSession(session: SessionData, kind: ExportKind, path: string): Promise<number> {
  switch (kind) {
    case 'envelopes-ndjson':
      return writeNewFile(path, envelopeLines(session));
    case 'blocks-json':
      return writeNewFile(path, [`${JSON.stringify(session.blocks().map(toBlockDetail), null, 2)}\n`]);
    case 'raw-sse':
      return writeNewFile(path, rawStream(session));
  }
}

/**
 * Writes the session as a recording (the documented format), from the bytes kept in memory:
 * each leg's request (redacted by the recorder), response, every chunk with its receive time,
 * the user's tool-results actions before the legs they started, and each leg's end.
 */
export async function saveRecording(
  session: SessionData,
  actions: readonly RecordedAction[],
  path: string,
  createRecorder: RecorderFactory,
): Promise<void> {
  const recorder = await createRecorder(path, { flushIntervalMs: RECORDING_FLUSH_MS, redact: true });
  try {
    for (const leg of session.legs) {
      for (const action of actions) if (action.leg === leg.index - 1) recorder.action(action);
      const request = leg.request ?? { method: 'GET', url: session.source.kind === 'file' ? pathToFileURL(session.source.path).href : '', headers: [], body: null };
      const recorded = recorder.startLeg(request);
      if (leg.response) recorder.response(recorded, leg.response);
      const body = leg.raw.count > 0 ? leg.raw : leg.rejected;
      for (let i = 0; i < body.count; i++) {
        const chunk = body.chunk(i);
        if (chunk) recorder.chunk(recorded, chunk.bytes, chunk.receivedAt);
      }
      recorder.endLeg(recorded, recordedOutcome(leg.end ?? { reason: 'stopped', message: 'The leg was still open when the session was saved' }));
    }
  } finally {
    await recorder.close();
  }
}
