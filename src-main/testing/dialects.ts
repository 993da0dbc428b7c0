import type { DiagnosticInit } from '../../src-shared/diagnostics/types';
import type { DialectFactory, DialectOptions } from '../../src-shared/dialects/types';
import type { EnvelopeInit } from '../../src-shared/envelope/types';
import { classifyControlFrame } from '../../src-shared/pipeline/stream-control';
import { frameChunks } from '../../src-shared/sse/collect';
import type { Frame } from '../../src-shared/sse/types';
import { readFixture } from './fixtures';
import { frameOf } from '../../src-shared/testing/frames';

/**
 * Test support for the dialects: run one over frames the way the session decoder does
 * (`[DONE]` and error frames are taken out before a dialect sees them), collect what it
 * reports, and compare its envelopes with the JSON run of the same upstream stream.
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

/** Run the dialect over one event per item (objects sent as their JSON). */
export function runDialectOnItems(
  factory: DialectFactory,
  items: readonly (object | string)[],
  options?: DialectOptions,
): DialectRun {
  return runDialect(
    factory,
    items.map((item, i) => frameOf(typeof item === 'string' ? item : JSON.stringify(item), i)),
    options,
  );
}

/** Frame a byte stream arriving as these chunks and run the dialect over its content frames. */
export function runDialectOnChunks(
  factory: DialectFactory,
  chunks: Iterable<Uint8Array>,
  options?: DialectOptions,
): DialectRun {
  return runDialect(factory, frameChunks(chunks, { maxDataLineBytes: Number.MAX_SAFE_INTEGER }).frames, options);
}

export function rulesOf(run: Pick<DialectRun, 'diagnostics'>): string[] {
  return run.diagnostics.map((d) => d.rule);
}

/** The envelope fields a test compares (frame and agent checked where they matter). */
export function envelopeShapes(envelopes: readonly EnvelopeInit[]): Omit<EnvelopeInit, 'frame' | 'agent'>[] {
  return envelopes.map(({ frame: _f, agent: _a, ...rest }) => rest);
}

/** An envelope as the upstream JSON format sends it: the four fields and the extras beside them. */
export interface JsonEnvelope {
  type: string;
  agent: string;
  final: boolean;
  delta: string;
  [extra: string]: unknown;
}

/** The envelopes of an upstream `.json.sse` fixture, parsed independently of the decoders. */
export function jsonFixtureEnvelopes(name: string): JsonEnvelope[] {
  return frameChunks([readFixture(name)], { maxDataLineBytes: Number.MAX_SAFE_INTEGER })
    .frames.filter((f) => f.data.startsWith('{"type"'))
    .map((f) => JSON.parse(f.data) as JsonEnvelope);
}

/** What `deltaBlocks` and `payloads` read of an envelope, decoded or upstream JSON. */
export interface Comparable {
  type: string;
  final: boolean;
  delta: string;
  control?: string;
}

/** Streamed blocks of one type as lists of deltas, split at final markers; control envelopes skipped. */
export function deltaBlocks(envelopes: readonly Comparable[], type: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  for (const e of envelopes) {
    if (e.type !== type || e.control !== undefined) continue;
    if (!e.final) {
      current.push(e.delta);
      continue;
    }
    blocks.push(current);
    current = [];
  }
  return blocks;
}

/** The payloads of buffered envelopes of one type, chunks joined up to each final one; control envelopes skipped. */
export function payloads(envelopes: readonly Comparable[], type: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const e of envelopes) {
    if (e.type !== type || e.control !== undefined) continue;
    current += e.delta;
    if (e.final) {
      out.push(current);
      current = '';
    }
  }
  return out;
}
