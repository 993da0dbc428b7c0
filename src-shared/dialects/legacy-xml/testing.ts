import type { DiagnosticInit } from '../../diagnostics/types';
import { classifyControlFrame } from '../../pipeline/stream-control';
import { frameChunks } from '../../sse/collect';
import type { Frame } from '../../sse/types';
import type { DialectFactory, DialectOptions, EnvelopeInit } from '../types';

/**
 * Test support for the xml and raw dialects: run a dialect over frames the way the session
 * decoder does (`[DONE]` and error frames are taken out before a dialect sees them) and
 * collect what it reports. Pure, so it runs anywhere the dialects do.
 */
export interface DialectRun {
  frames: Frame[];
  envelopes: EnvelopeInit[];
  diagnostics: DiagnosticInit[];
}

export function runDialect(factory: DialectFactory, frames: readonly Frame[], options?: DialectOptions): DialectRun {
  const envelopes: EnvelopeInit[] = [];
  const diagnostics: DiagnosticInit[] = [];
  const decoder = factory({ onEnvelope: (e) => envelopes.push(e), onDiagnostic: (d) => diagnostics.push(d) }, options);
  const content = frames.filter((f) => classifyControlFrame(f.data) === undefined);
  for (const frame of content) decoder.push(frame);
  decoder.end();
  return { frames: content, envelopes, diagnostics };
}

/** Frame a byte stream arriving as these chunks and run the dialect over its content frames. */
export function runDialectOnChunks(factory: DialectFactory, chunks: Iterable<Uint8Array>, options?: DialectOptions): DialectRun {
  return runDialect(factory, frameChunks(chunks, { maxDataLineBytes: Number.MAX_SAFE_INTEGER }).frames, options);
}

export function rulesOf(run: DialectRun): string[] {
  return run.diagnostics.map((d) => d.rule);
}
