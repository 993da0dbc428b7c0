import { readFileSync } from 'node:fs';
import { decodeBytes, decodeLegs } from '../../src-shared/pipeline/session-decoder';
import { blockEndFacts, endStatusOf, type EndStatusKind } from '../../src-shared/pipeline/end-status';
import type { DecodeResult } from '../../src-shared/pipeline/types';
import { chunkings } from '../../src-shared/testing/chunking';
import { encodeUtf8 } from '../../src-shared/text/utf8';
import { providerFixturePath } from './fixtures';

/** One provider event as the API frames it: `event: <type>` and the JSON data with that type. */
export function providerEvent(type: string, fields: Record<string, unknown> = {}): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
}

/** Decode provider events (built with providerEvent, or raw SSE text) as one stream. */
export function decodeProviderEvents(events: readonly string[]): DecodeResult {
  return decodeBytes(encodeUtf8(events.join('')));
}

export function readProviderFixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(providerFixturePath(name)));
}

export function rulesOf(result: Pick<DecodeResult, 'diagnostics'>): string[] {
  return result.diagnostics.map((d) => d.rule);
}

/** What a chunking must not change: every envelope, block and finding (receive times aside, as the cuts move them). */
export function decodedShape(result: DecodeResult): unknown {
  return {
    formats: result.formats,
    envelopes: result.envelopes.map(({ receivedAt: _r, ...e }) => e),
    blocks: result.blocks,
    diagnostics: result.diagnostics.map((d) => [d.rule, d.message, d.at]),
  };
}

/** The fixture decoded whole, byte by byte and at seeded random cuts: each must equal the first. */
export function decodeEveryChunking(bytes: Uint8Array): { name: string; shape: unknown }[] {
  return chunkings(bytes).map(({ name, chunks }) => ({
    name,
    shape: decodedShape(decodeLegs([chunks.map((c) => ({ bytes: c }))])),
  }));
}

/** The chunkings (decodeEveryChunking) whose decode differs from the whole stream's: none, for a decoder. */
export function chunkingsThatDiffer(bytes: Uint8Array): string[] {
  const [first, ...rest] = decodeEveryChunking(bytes);
  const expected = JSON.stringify(first?.shape);
  return rest.filter((r) => JSON.stringify(r.shape) !== expected).map((r) => r.name);
}

/**
 * A recorded stream decoded, with what every recorded test checks first, in one object for one
 * `toEqual`: its dialects, its findings' rules, its last leg's end status, and the chunkings
 * that decode differently (none, for a decoder).
 */
export function decodeRecorded(bytes: Uint8Array): {
  result: DecodeResult;
  facts: { formats: DecodeResult['formats']; rules: string[]; status: EndStatusKind; chunkingsThatDiffer: string[] };
} {
  const result = decodeBytes(bytes);
  const facts = {
    formats: result.formats,
    rules: rulesOf(result),
    status: lastLegStatus(result),
    chunkingsThatDiffer: chunkingsThatDiffer(bytes),
  };
  return { result, facts };
}

/** The block of a run that paused for its client (awaiting_frontend_tools), if it did. */
export function pauseOf(result: Pick<DecodeResult, 'blocks'>): DecodeResult['blocks'][number] | undefined {
  return result.blocks.find((b) => b.kind === 'awaiting_frontend_tools');
}

/** The end status of a decode's last leg, as the session list shows it. */
export function lastLegStatus(result: DecodeResult): EndStatusKind {
  const leg = result.ends.length - 1;
  return endStatusOf({ stream: result.ends.at(-1)?.stream ?? null, ...blockEndFacts(result.blocks, leg) }).kind;
}
