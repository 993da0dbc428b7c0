import { describe, expect, it, test } from 'vitest';
import { chunkings } from '../testing/chunking';
import {
  listSseFixtures,
  readExternalFixture,
  readFixture,
  readManifest,
  type ManifestEntry,
} from '../../src-main/testing/fixtures';
import { encodeUtf8 } from '../text/utf8';
import { createCollectingSession, decodeBytes, decodeLegs, type SessionDecoderOptions } from './session-decoder';
import type { DecodeResult } from './types';

const AGENT = '11111111-1111-4111-8111-111111111111';

const LINE_ENDINGS = [
  ['LF', '\n'],
  ['CR', '\r'],
  ['CRLF', '\r\n'],
] as const;

/** A hand-made stream: one `data:` line per event, each followed by a blank line. */
function sse(events: readonly string[], eol = '\n'): Uint8Array {
  return encodeUtf8(events.map((data) => `data: ${data}${eol}${eol}`).join(''));
}

function envelope(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: 'text', agent: AGENT, final: false, delta: 'hi', ...fields });
}

const META_INIT = envelope({
  type: 'meta_init',
  final: true,
  delta: JSON.stringify({ format: 'json', agent_uuid: AGENT }),
});
const ERROR_FRAME = JSON.stringify({
  error: 'APIStatusError',
  message: 'Overloaded',
  traceback: 'Traceback (most recent call last):\n  ...',
});

function decode(events: readonly string[], eol = '\n', options?: SessionDecoderOptions): DecodeResult {
  return decodeBytes(sse(events, eol), options);
}

function rules(result: DecodeResult, prefix = 'stream.'): string[] {
  return result.diagnostics.map((d) => d.rule).filter((rule) => rule.startsWith(prefix));
}

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

describe('stream.error-frame', () => {
  test.each(LINE_ENDINGS)(
    'reported after partial output, ends the leg without stream.missing-done (%s)',
    (_name, eol) => {
      const result = decode([META_INIT, envelope(), ERROR_FRAME], eol);
      expect(rules(result)).toEqual(['stream.error-frame']);
      expect(result.diagnostics.find((d) => d.rule === 'stream.error-frame')?.message).toBe(
        'Server error APIStatusError: Overloaded',
      );
      expect(result.envelopes.at(-1)).toMatchObject({
        control: 'error-frame',
        type: 'error_frame',
        delta: 'Overloaded',
        agent: AGENT,
        extras: { error: 'APIStatusError' },
      });
    },
  );

  it('is recognised as the very first event, before any format is known', () => {
    const result = decode([ERROR_FRAME]);
    expect(rules(result)).toEqual(['stream.error-frame']);
    expect(result.formats).toEqual([null]);
  });

  it('is located at its frame', () => {
    const result = decode([META_INIT, ERROR_FRAME]);
    expect(result.diagnostics.find((d) => d.rule === 'stream.error-frame')?.at).toMatchObject({ frame: 1 });
  });

  test.each([
    ['an envelope of type error', envelope({ type: 'error', final: true, delta: '{"type":"api_error"}' })],
    ['an object with error but no traceback', JSON.stringify({ error: 'x', message: 'y' })],
  ])('is not reported for %s', (_name, data) => {
    expect(rules(decode([META_INIT, data, '[DONE]']))).not.toContain('stream.error-frame');
  });
});

describe('[DONE] and stream.after-done', () => {
  test.each(LINE_ENDINGS)(
    '[DONE] last: a done control envelope stamped with the root agent, no finding (%s)',
    (_name, eol) => {
      const result = decode([META_INIT, envelope(), '[DONE]'], eol);
      expect(rules(result)).toEqual([]);
      expect(result.envelopes.at(-1)).toMatchObject({ control: 'done', type: '[DONE]', agent: AGENT, frame: 2 });
    },
  );

  test.each(LINE_ENDINGS)('an event after [DONE] is reported and still decoded (%s)', (_name, eol) => {
    const result = decode([META_INIT, '[DONE]', envelope({ delta: 'late' })], eol);
    expect(rules(result)).toEqual(['stream.after-done']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.after-done')?.at).toMatchObject({ frame: 2 });
    expect(result.envelopes.at(-1)).toMatchObject({ type: 'text', delta: 'late' });
  });

  it('a second [DONE] is an event after [DONE] too', () => {
    expect(rules(decode([META_INIT, '[DONE]', '[DONE]']))).toEqual(['stream.after-done']);
  });

  it('a stream of only [DONE] decodes without findings or format', () => {
    const result = decode(['[DONE]']);
    expect(rules(result)).toEqual([]);
    expect(result.formats).toEqual([null]);
  });
});

describe('stream.missing-done', () => {
  test.each(LINE_ENDINGS)('reported when the stream just stops (%s)', (_name, eol) => {
    const result = decode([META_INIT, envelope()], eol);
    expect(rules(result)).toEqual(['stream.missing-done']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.missing-done')?.at.byteStart).toBe(
      sse([META_INIT, envelope()], eol).length,
    );
  });

  it('reported per leg, with the leg in the location', () => {
    const result = decodeLegs([[{ bytes: sse([META_INIT, '[DONE]']) }], [{ bytes: sse([envelope()]) }]]);
    const missing = result.diagnostics.filter((d) => d.rule === 'stream.missing-done');
    expect(missing.map((d) => d.at.leg)).toEqual([1]);
  });

  it('not reported when an error frame ended the leg', () => {
    expect(rules(decode([META_INIT, ERROR_FRAME]))).not.toContain('stream.missing-done');
  });

  it('not reported for an empty response', () => {
    expect(rules(decodeBytes(new Uint8Array(0)))).toEqual([]);
  });
});

describe('format detection and stream.format-undetected', () => {
  const garbage = (n: number): string[] => Array.from({ length: n }, (_, i) => `garbage ${i}`);

  test.each(LINE_ENDINGS)(
    '8 undecidable events: reported once at the 8th, shown as generic events so nothing is lost (%s)',
    (_name, eol) => {
      const result = decode([...garbage(8), '[DONE]'], eol);
      expect(rules(result)).toEqual(['stream.format-undetected']);
      expect(result.diagnostics.find((d) => d.rule === 'stream.format-undetected')?.at.frame).toBe(7);
      expect(result.formats).toEqual(['json-events']);
      expect(result.detections).toEqual([{ by: 'fallback' }]);
      expect(result.envelopes.filter((e) => e.control === 'event').map((e) => e.delta)).toEqual(garbage(8));
    },
  );

  it('a stream that ends before the window is full is reported at its end, located at the first event', () => {
    const result = decode(garbage(3));
    // The fallback claims no terminator: no stream.missing-done for a stream it does not know.
    expect(rules(result)).toEqual(['stream.format-undetected']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.format-undetected')?.at.frame).toBe(0);
    expect(result.envelopes).toHaveLength(3);
  });

  it('not reported when a later event of the window tells the format; the earlier ones are decoded by it', () => {
    const result = decode(['not json', META_INIT, envelope(), '[DONE]']);
    expect(rules(result)).toEqual([]);
    expect(result.formats).toEqual(['json']);
    expect(result.envelopes.map((e) => e.control ?? e.type)).toEqual(['undecoded', 'meta_init', 'text', 'done']);
    expect(result.diagnostics.map((d) => d.rule)).toContain('json.invalid');
  });

  it('not reported when the format is given', () => {
    const result = decode(garbage(10), '\n', { format: 'json' });
    expect(rules(result)).toEqual(['stream.missing-done']);
    expect(result.formats).toEqual(['json']);
  });

  test.each([
    ['json', [META_INIT, envelope(), '[DONE]']],
    ['xml', ['<content-block-text>', 'hello', '</content-block-text>', '[DONE]']],
    [
      'raw',
      [
        `<meta_init data='{"format": "raw"}'></meta_init>`,
        '{"type":"message_start","message":{"id":"m"}}',
        '{"type":"message_stop"}',
        '[DONE]',
      ],
    ],
  ] as const)('detects %s from hand-made events', (format, events) => {
    const result = decode(events);
    expect(result.formats).toEqual([format]);
    expect(rules(result)).toEqual([]);
  });
});

describe('stream.format-mismatch', () => {
  const metaInit = (payload: string, final: boolean): string => envelope({ type: 'meta_init', final, delta: payload });

  test.each(LINE_ENDINGS)('a JSON stream whose chunked meta_init announces xml (%s)', (_name, eol) => {
    const payload = JSON.stringify({ format: 'xml', agent_uuid: AGENT, user_query: 'q' });
    const result = decode([metaInit(payload.slice(0, 15), false), metaInit(payload.slice(15), true), '[DONE]'], eol);
    expect(rules(result)).toEqual(['stream.format-mismatch']);
    expect(result.diagnostics.find((d) => d.rule === 'stream.format-mismatch')).toMatchObject({
      severity: 'warning',
      at: { frame: 1 },
    });
  });

  it('not reported when the meta_init announces json', () => {
    expect(rules(decode([META_INIT, '[DONE]']))).toEqual([]);
  });
});

describe('stream.compressed-body', () => {
  // The gzip of "data: [DONE]\n\n" would do; any body starting with the signature is the case.
  const gzipped = Uint8Array.from([
    0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x49, 0x2c, 0x49, 0xb4, 0x52,
  ]);

  it.each(chunkings(gzipped).map((c) => [c.name, c.chunks] as const))(
    'names a gzip body that no Content-Encoding announced (%s)',
    (_name, chunks) => {
      const result = decodeLegs([chunks.map((bytes) => ({ bytes }))]);
      const found = result.diagnostics.filter((d) => d.rule === 'stream.compressed-body');
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ severity: 'error', at: { byteStart: 0, byteEnd: 2 } });
      expect(found[0]?.message).toMatch(/gzip signature, but no Content-Encoding/);
    },
  );

  it('must not trigger on a plain stream, nor on the signature later in a stream', () => {
    expect(rules(decode([META_INIT, '[DONE]']))).not.toContain('stream.compressed-body');
    const later = decodeBytes(Uint8Array.from([...encodeUtf8('data: x\n\n'), 0x1f, 0x8b]));
    expect(rules(later)).not.toContain('stream.compressed-body');
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
