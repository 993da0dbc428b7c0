import type { RecordedResponse } from '../../../src-shared/recording/types';
import type { Findings } from './findings';
import { readRange, reiterable, type SourceFs } from './source-file';
import type { ImportedSource } from './types';

/** Block size for captures: they carry no network chunk boundaries, so any size is as true as another. */
export const CAPTURE_BLOCK = 64 * 1024;

/**
 * A raw capture of a stream: its bytes, exactly, as one leg. `sse` for a `text/event-stream`
 * capture, `lines` for a line-framed wire's (the decoder frames it by its first bytes).
 */
export function openSseCapture(
  path: string,
  fs: SourceFs,
  findings: Findings,
  size: number,
  bodyOffset: number,
  response?: RecordedResponse,
  kind: 'sse' | 'lines' = 'sse',
): ImportedSource {
  const notes = [
    `A raw ${kind === 'sse' ? 'event-stream' : 'line-framed stream'} capture keeps neither network chunk boundaries nor receive times: it is read in 64 KiB blocks, all at time 0.`,
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
