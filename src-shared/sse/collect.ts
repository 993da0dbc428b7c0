import type { DiagnosticInit } from '../diagnostics/types';
import { createSseFramer } from './framer';
import type { Frame, FramerOptions, FramerSummary } from './types';

/** Everything one framer run produced, in order. */
export interface FramedStream {
  frames: Frame[];
  diagnostics: DiagnosticInit[];
  retries: number[];
  summary: FramerSummary;
}

/**
 * Frame a whole stream given as its network chunks (file import, CLI, tests). The i-th
 * chunk's receive time is `receivedAt(i)`, 0 when not given.
 */
export function frameChunks(
  chunks: Iterable<Uint8Array>,
  options: FramerOptions = {},
  receivedAt: (index: number) => number = () => 0,
): FramedStream {
  const frames: Frame[] = [];
  const diagnostics: DiagnosticInit[] = [];
  const retries: number[] = [];
  const framer = createSseFramer(
    { onFrame: (f) => frames.push(f), onDiagnostic: (d) => diagnostics.push(d), onRetry: (ms) => retries.push(ms) },
    options,
  );
  let index = 0;
  for (const chunk of chunks) framer.push(chunk, receivedAt(index++));
  const summary = framer.end();
  return { frames, diagnostics, retries, summary };
}
