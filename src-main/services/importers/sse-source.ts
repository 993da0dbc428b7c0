import type { RecordedResponse } from '../../../src-shared/recording/types';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import type { ImportedSource } from './types';

/** Block size for captures: they carry no network chunk boundaries, so any size is as true as another. */
export const CAPTURE_BLOCK = 64 * 1024;

/**
 * A raw capture of a response body: its bytes, exactly, as one leg. A `text/event-stream`
 * capture (`sse`), or a body streamed as one JSON array (`json-stream`: Gemini without
 * `alt=sse`), which the decoder frames element by element just as it does live.
 */
export function openSseCapture(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  bodyOffset: number,
  response?: RecordedResponse,
  kind: 'sse' | 'json-stream' = 'sse',
): ImportedSource {
  const notes = [
    kind === 'sse'
      ? 'A raw event-stream capture keeps neither network chunk boundaries nor receive times: it is read in 64 KiB blocks, all at time 0.'
      : 'A response body streamed as one JSON array: each element is one event, decoded as it was received. The file keeps neither network chunk boundaries nor receive times: it is read in 64 KiB blocks, all at time 0.',
  ];
  if (response)
    notes.push(
      `The capture starts with an HTTP head (curl -i): status ${response.status} ${response.statusText}; the stream starts at byte ${bodyOffset}.`,
    );
  async function* chunks() {
    for await (const bytes of readRange(fs, path, bodyOffset, size, CAPTURE_BLOCK)) yield { bytes, receivedAt: 0 };
  }
  return {
    kind,
    path,
    size,
    legs: [{ index: 0, ...(response ? { response } : {}), byteCount: size - bodyOffset, chunks: reiterable(chunks) }],
    actions: [],
    notes,
    diagnostics: findings.list,
  };
}
