import { fileDiagnostic } from '../../../src-shared/recording/diagnostics';
import type { RecordedResponse } from '../../../src-shared/recording/types';
import { LEG_HEADER_MAX, readLegHeader } from '../../../src-shared/export/sse-legs';
import { isStreamResponse } from '../../../src-shared/pipeline/leg-framing';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import type { ImportedLeg, ImportedSource } from './types';

/** Block size for captures: they carry no network chunk boundaries, so any size is as true as another. */
export const CAPTURE_BLOCK = 64 * 1024;

/**
 * A raw capture of a response body: its bytes, exactly, as one leg — or as the legs its first
 * line names, when it is an event-stream capture of a session of several legs this inspector
 * wrote (src-shared/export/sse-legs.ts). `sse` for a `text/event-stream` capture, `lines` for a
 * line-framed wire's, `json-stream` for a body streamed as one JSON array (Gemini without
 * `alt=sse`) or one object pretty-printed; the decoder frames each by its first bytes, just
 * as it does live.
 */
export async function openSseCapture(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  bodyOffset: number,
  response?: RecordedResponse,
  kind: 'sse' | 'lines' | 'json-stream' = 'sse',
): Promise<ImportedSource> {
  const notes = [
    kind === 'json-stream'
      ? 'A JSON body (an array streamed element by element, or an object pretty-printed): each element or top-level object is one event, decoded as it was received. The file keeps neither network chunk boundaries nor receive times: it is read in 64 KiB blocks, all at time 0.'
      : `A raw ${kind === 'sse' ? 'event-stream' : 'line-framed stream'} capture keeps neither network chunk boundaries nor receive times: it is read in 64 KiB blocks, all at time 0.`,
  ];
  if (response)
    notes.push(
      `The capture starts with an HTTP head (curl -i): status ${response.status} ${response.statusText}; the stream starts at byte ${bodyOffset}.`,
    );
  const leg = (index: number, start: number, end: number): ImportedLeg => {
    async function* chunks() {
      for await (const bytes of readRange(fs, path, start, end, CAPTURE_BLOCK)) yield { bytes, receivedAt: 0 };
    }
    // With a head, the head and the body's start decide whether it is a stream, as they would live.
    const head = response ? { response, stream: isStreamResponse(response, kind === 'json-stream') } : {};
    return { index, ...head, byteCount: end - start, chunks: reiterable(chunks) };
  };
  const sizes = response || kind !== 'sse' ? null : await legSizes(path, fs, findings, size);
  const legs: ImportedLeg[] = [];
  if (sizes) {
    let start = sizes.bodyOffset;
    for (const [index, legSize] of sizes.sizes.entries()) {
      legs.push(leg(index, start, start + legSize));
      start += legSize;
    }
    notes.push(
      `The capture holds ${sizes.sizes.length} legs, as its first line says (bytes ${sizes.sizes.join(', ')}).`,
    );
  } else {
    legs.push(leg(0, bodyOffset, size));
  }
  return { kind, path, size, legs, actions: [], notes, diagnostics: findings.list };
}

/** The legs the capture's leg header names, when it has one that fits the file (else a finding, and one stream). */
async function legSizes(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
): Promise<{ sizes: number[]; bodyOffset: number } | null> {
  const file = await fs.open(path);
  let head: Uint8Array;
  try {
    head = await file.read(0, Math.min(size, LEG_HEADER_MAX));
  } finally {
    await file.close();
  }
  const header = readLegHeader(new TextDecoder().decode(head));
  if (!header) return null;
  const total = header.sizes.reduce((sum, n) => sum + n, 0);
  if (total === size - header.bodyOffset) return header;
  findings.report(
    fileDiagnostic(
      'import.leg-sizes',
      `The first line names ${header.sizes.length} legs of ${total} bytes in all, but ${size - header.bodyOffset} bytes follow it: the capture is read as one stream.`,
      0,
    ),
  );
  return null;
}
