import { describe, expect, it, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import {
  listSseFixtures,
  readExternalFixture,
  readFixture,
  readManifest,
  type ManifestEntry,
} from '../../src-main/testing/fixtures';
import { createCollectingSession, decodeBytes, decodeLegs } from './session-decoder';
import { decode, envelope, META_INIT, rules } from './session-decoder-testing';
import type { DecodeResult } from './types';

// The stream.* rules on hand-made streams are in stream-rules.test.ts.

const manifest: Record<string, ManifestEntry> = readManifest();
const fixtures = listSseFixtures();

function expectedFormat(entry: ManifestEntry | undefined): string | undefined {
  return entry?.kind === 'captured' ? 'xml' : entry?.kind;
}

describe('the pipeline over the upstream fixtures', () => {
  const decoded = new Map<string, DecodeResult>();
  const decodedFixture = (file: string): DecodeResult => {
    let result = decoded.get(file);
    if (!result) {
      result = decodeBytes(readFixture(file));
      decoded.set(file, result);
    }
    return result;
  };

  test.each(fixtures)('%s: the detected format is the manifest kind (captured → xml)', (file) => {
    const result = decodedFixture(file);
    expect(result.formats).toEqual([expectedFormat(manifest[file])]);
    expect(rules(result)).not.toContain('stream.format-undetected');
    expect(rules(result)).not.toContain('stream.format-mismatch');
  });

  test.each(fixtures)('%s: [DONE] becomes one control envelope, last, as often as the manifest counts', (file) => {
    const entry = manifest[file];
    const { envelopes } = decodedFixture(file);
    const done = envelopes.filter((e) => e.control === 'done');
    expect(done).toHaveLength(entry?.done_count ?? -1);
    for (const e of done) expect(e).toMatchObject({ type: '[DONE]', final: true, delta: '', extras: {} });
    if (entry?.done_is_last) expect(envelopes.at(-1)?.control).toBe('done');
  });

  test.each(fixtures)('%s: stream.missing-done only without [DONE] and without an error frame', (file) => {
    const entry = manifest[file];
    const missing = (entry?.done_count ?? 0) === 0 && (entry?.error_frames.length ?? 0) === 0;
    expect(rules(decodedFixture(file)).includes('stream.missing-done')).toBe(missing);
    expect(rules(decodedFixture(file))).not.toContain('stream.after-done');
  });

  test.each(fixtures)('%s: error frames are reported with the manifest text and kept as control envelopes', (file) => {
    const expected = manifest[file]?.error_frames ?? [];
    const result = decodedFixture(file);
    expect(result.diagnostics.filter((d) => d.rule === 'stream.error-frame').map((d) => d.message)).toEqual(
      expected.map((e) => `Server error ${e.error}: ${e.message}`),
    );
    const frames = result.envelopes.filter((e) => e.control === 'error-frame');
    expect(frames.map((e) => ({ error: e.extras['error'], message: e.delta }))).toEqual(expected);
    for (const e of frames) expect(typeof e.extras['traceback']).toBe('string');
  });

  it('error_midstream.json.sse: the partial output precedes the error frame, which is the last envelope', () => {
    const { envelopes } = decodedFixture('error_midstream.json.sse');
    expect(envelopes.at(-1)?.control).toBe('error-frame');
    expect(envelopes.filter((e) => e.type === 'text').length).toBeGreaterThan(0);
  });

  it('bug_xml_at_head.xml.sse: an XML meta_init, then the error frame', () => {
    const result = decodedFixture('bug_xml_at_head.xml.sse');
    expect(result.formats).toEqual(['xml']);
    expect(result.envelopes.at(-1)?.control).toBe('error-frame');
    expect(result.envelopes.at(-1)?.extras['error']).toBe('TypeError');
  });

  test.each(fixtures.filter((f) => manifest[f]?.kind === 'json'))(
    '%s: over-budget findings match the manifest (the error frame excluded)',
    (file) => {
      const entry = manifest[file];
      const over = decodedFixture(file).diagnostics.filter(
        (d) => d.rule === 'envelope.over-budget' || d.rule === 'envelope.over-budget-after-escaping',
      );
      expect(over).toHaveLength((entry?.json_lines_over_2048 ?? 0) - (entry?.over_2048_by_type['null'] ?? 0));
    },
  );

  it('frontend_tools_resume.raw.sse as a continuation leg of a raw session is raw from its first item', () => {
    const result = decodeLegs([
      [{ bytes: readFixture('frontend_tools.raw.sse') }],
      [{ bytes: readFixture('frontend_tools_resume.raw.sse') }],
    ]);
    expect(result.formats).toEqual(['raw', 'raw']);
    const leg1 = result.envelopes.filter((e) => e.leg === 1 && e.control !== 'done');
    expect(leg1.length).toBeGreaterThan(0);
    for (const e of leg1) expect(e.dialect).toBe('raw');
    expect(leg1.some((e) => e.frame === 0 && e.type === 'tool_result')).toBe(true);
    expect(result.diagnostics.filter((d) => d.at.leg === 1 && d.rule.startsWith('xml.'))).toEqual([]);
  });

  it('frontend_tools_resume.raw.sse on its own starts as xml and switches to raw at the first Anthropic event', () => {
    const result = decodeBytes(readFixture('frontend_tools_resume.raw.sse'));
    expect(result.formats).toEqual(['raw']);
    const firstItem = result.envelopes.filter((e) => e.frame === 0);
    expect(firstItem.length).toBeGreaterThan(0);
    for (const e of firstItem) expect(e.dialect).toBe('xml');
    const rest = result.envelopes.filter((e) => e.frame > 0 && e.control !== 'done');
    for (const e of rest) expect(e.dialect).toBe('raw');
    expect(result.diagnostics.filter((d) => d.rule.startsWith('xml.'))).toEqual([]);
  });

  it('regression: model text that looks like an Anthropic event does not switch an XML leg to raw', () => {
    const result = decode(['<content-block-text>', '{"type":"ping"}', 'after', '</content-block-text>', '[DONE]']);
    expect(result.formats).toEqual(['xml']);
    const text = result.blocks.find((b) => b.kind === 'text');
    expect(text?.content).toBe('{"type":"ping"}after');
    expect(text?.status).toBe('complete');
  });

  it('a forced format is not switched: xml stays xml', () => {
    expect(decodeBytes(readFixture('frontend_tools_resume.raw.sse'), { format: 'xml' }).formats).toEqual(['xml']);
  });
});

/** What must not depend on how the bytes were cut. Frames are left out: they record chunk indices. */
function chunkIndependent(result: DecodeResult): unknown {
  return {
    formats: result.formats,
    envelopes: result.envelopes,
    blocks: result.blocks,
    agents: result.agents,
    diagnostics: result.diagnostics,
  };
}

describe('decoding without statistics', () => {
  test.each(fixtures)(
    '%s: the same frames, envelopes, blocks, agents, findings and ends, and no statistics',
    (file) => {
      const bytes = readFixture(file);
      const session = createCollectingSession({ statistics: false });
      session.decodeLeg([{ bytes }]);
      const { stats, ...without } = session.finish();
      const { stats: withStats, ...full } = decodeBytes(bytes);
      expect(stats).toBeUndefined();
      expect(withStats.frames).toBe(full.frames.flat().length);
      expect(without).toEqual(full);
    },
  );
});

describe('chunking invariance of the whole pipeline', () => {
  test.each(fixtures)('%s: whole, byte by byte and seeded random splits decode identically', (file) => {
    const bytes = readFixture(file);
    const [whole, ...others] = chunkings(bytes);
    const expected = chunkIndependent(decodeLegs([(whole?.chunks ?? []).map((chunk) => ({ bytes: chunk }))]));
    for (const chunking of others) {
      const actual = chunkIndependent(decodeLegs([chunking.chunks.map((chunk) => ({ bytes: chunk }))]));
      expect(actual, chunking.name).toEqual(expected);
    }
  });
});

describe("rules that belong to a dialect (the catalogue's `dialects`)", () => {
  const long = 'x'.repeat(2100);

  it("sse.oversize-line, the upstream agent's 2 KiB chunk budget, fires on its JSON envelopes", () => {
    const result = decode([META_INIT, envelope({ delta: long }), '[DONE]']);
    expect(rules(result, 'sse.')).toEqual(['sse.oversize-line']);
  });

  it('must not fire on provider streams, where no such budget exists, even on lines read before the dialect was detected', () => {
    const anthropic = decode([
      JSON.stringify({ type: 'message_start', message: { id: 'm', content: [], padding: long } }),
      JSON.stringify({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: long } }),
      JSON.stringify({ type: 'content_block_stop', index: 0 }),
      JSON.stringify({ type: 'message_stop' }),
    ]);
    expect(anthropic.formats).toEqual(['anthropic-messages']);
    expect(rules(anthropic, 'sse.')).toEqual([]);
    // A real capture: a reasoning item and a response.completed of more than 2,048 bytes.
    const openai = decodeBytes(readExternalFixture('vercel-ai/openai-two-responses.data-only.sse'));
    expect(openai.formats).toEqual(['openai-responses']);
    expect(rules(openai, 'sse.')).toEqual([]);
  });
});
