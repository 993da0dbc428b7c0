import { describe, expect, test } from 'vitest';
import type { BlockSummary } from '../../src-shared/contract';
import { decodeBytes } from '../../src-shared/pipeline/session-decoder';
import { readFixture } from '../../src-main/testing/fixtures';
import {
  classifyImageSource,
  errorFrameOf,
  detailKey,
  kindLabel,
  metaFilesOf,
  payloadImage,
  payloadLink,
  presentationOf,
  prettyJson,
  safeExternalUrl,
} from './blocks';

/** A block summary with the fields the helpers read. */
function block(agent: string, kind: string, firstEnvelope: number, extra: Partial<BlockSummary> = {}): BlockSummary {
  const id = extra.id ?? 0;
  return {
    id,
    agent,
    kind,
    status: 'complete',
    length: 0,
    preview: '',
    citations: 0,
    images: 0,
    firstEnvelope,
    lastEnvelope: firstEnvelope,
    envelopeCount: 1,
    leg: 0,
    byteStart: 0,
    byteEnd: 0,
    ...extra,
  };
}

describe('helpers', () => {
  test('a block kind a dialect adds is labelled and presented as its module declares (segments: one segment each)', () => {
    expect(kindLabel('segment')).toBe('Segment');
    expect(presentationOf('segment')).toBe('segment');
    expect(presentationOf('state')).toBe('state');
    expect([kindLabel('some_future_kind'), presentationOf('some_future_kind')]).toEqual(['some_future_kind', 'plain']);
  });

  test('classifyImageSource: data images inline, http(s) as a link, everything else refused', () => {
    expect(classifyImageSource('data:image/png;base64,iVBORw0KGgo=')).toEqual({
      kind: 'data',
      src: 'data:image/png;base64,iVBORw0KGgo=',
      mediaType: 'image/png',
      bytes: 8,
    });
    // The size is what the payload decodes to, its padding not counted (Gemini's one-byte `AA==`).
    expect(classifyImageSource('data:image/jpeg;base64,AA==')).toMatchObject({ kind: 'data', bytes: 1 });
    expect(classifyImageSource('data:image/gif;base64,R0lGODlh')).toMatchObject({ kind: 'data', bytes: 6 });
    expect(classifyImageSource('https://example.com/a.png')).toEqual({
      kind: 'remote',
      url: 'https://example.com/a.png',
    });
    expect(classifyImageSource('data:text/html;base64,PHNjcmlwdD4=').kind).toBe('unsupported');
    expect(classifyImageSource('javascript:alert(1)').kind).toBe('unsupported');
    expect(classifyImageSource('/relative.png').kind).toBe('unsupported');
    expect(classifyImageSource('file:///etc/passwd').kind).toBe('unsupported');
  });

  test('payloadImage: the image a JSON payload carries, as a URL or as base64 data, and nothing else', () => {
    const png = { src: 'data:image/png;base64,iVBORw0KGgo=', mediaType: 'image/png' };
    expect(payloadImage({ type: 'file', mediaType: 'image/png', url: png.src })).toEqual(png);
    expect(payloadImage({ mimeType: 'image/png', data: 'iVBORw0KGgo=' })).toEqual(png);
    expect(payloadImage({ media_type: 'image/jpeg', url: 'https://a.example/x.jpg' })).toEqual({
      src: 'https://a.example/x.jpg',
      mediaType: 'image/jpeg',
    });
    // What the source may do is classifyImageSource's call: a script URL comes back, to be refused there.
    expect(payloadImage({ mediaType: 'image/png', url: 'javascript:alert(1)' })?.src).toBe('javascript:alert(1)');
    expect(classifyImageSource('javascript:alert(1)').kind).toBe('unsupported');
    for (const parsed of [
      { mediaType: 'application/pdf', url: 'data:application/pdf;base64,JVBERi0=' },
      { mediaType: 'image/png' },
      { mediaType: 'image/png', url: '', data: 42 },
      { mediaType: 7, url: png.src },
      [{ mediaType: 'image/png', url: png.src }],
      'image/png',
      null,
      undefined,
    ])
      expect(payloadImage(parsed), JSON.stringify(parsed)).toBeNull();
  });

  test("payloadLink: the web page a source part points at, with its title; never an image's URL or another scheme", () => {
    expect(payloadLink({ sourceId: 'src-1', url: 'https://en.wikipedia.org/wiki/Paris', title: 'Paris' })).toEqual({
      url: 'https://en.wikipedia.org/wiki/Paris',
      title: 'Paris',
    });
    expect(payloadLink({ url: 'http://a.example/x', title: '' })).toEqual({
      url: 'http://a.example/x',
      title: undefined,
    });
    for (const parsed of [
      { url: 'javascript:alert(1)', title: 'x' },
      { url: 'file:///etc/passwd' },
      { url: '/relative' },
      { url: 42 },
      { mediaType: 'image/png', url: 'https://a.example/x.png' },
      [{ url: 'https://a.example/' }],
      'https://a.example/',
      null,
    ])
      expect(payloadLink(parsed), JSON.stringify(parsed)).toBeNull();
  });

  test('safeExternalUrl accepts absolute http(s) only', () => {
    expect(safeExternalUrl('https://a.example/x?y=1')).toBe('https://a.example/x?y=1');
    expect(safeExternalUrl('http://a.example')).toBe('http://a.example/');
    expect(safeExternalUrl('mailto:a@b.c')).toBeNull();
    expect(safeExternalUrl('javascript:void(0)')).toBeNull();
    expect(safeExternalUrl('#frag')).toBeNull();
    expect(safeExternalUrl(undefined)).toBeNull();
  });

  test('prettyJson prefers the parsed payload, falls back to parsing the content', () => {
    expect(prettyJson({ parsed: { a: 1 }, content: 'ignored' })).toBe('{\n  "a": 1\n}');
    expect(prettyJson({ content: ' [1, 2] ' })).toBe('[\n  1,\n  2\n]');
    expect(prettyJson({ content: '{"a": ' })).toBeNull();
    expect(prettyJson({ content: 'plain' })).toBeNull();
  });

  test('detailKey changes when a live block grows or completes', () => {
    const { preview: _preview, ...base } = block('A', 'text', 0, { length: 10, status: 'open' });
    expect(detailKey(base)).not.toBe(detailKey({ ...base, length: 11 }));
    expect(detailKey(base)).not.toBe(detailKey({ ...base, status: 'complete' }));
    expect(detailKey(base)).not.toBe(detailKey({ ...base, citations: 1 }));
    const moved = { ...base, firstEnvelope: 99, agent: 'B' };
    expect(detailKey(base)).toBe(detailKey(moved));
  });

  test('errorFrameOf: error_midstream.json carries error, message and traceback', () => {
    const result = decodeBytes(readFixture('error_midstream.json.sse'));
    const frame = result.blocks.find((b) => b.kind === 'error_frame');
    const parsed = errorFrameOf(frame?.parsed);
    expect(parsed?.error).toBe('APIStatusError');
    expect(parsed?.message).toContain('Overloaded');
    expect(parsed?.traceback).toMatch(/^Traceback \(most recent call last\)/);
    expect(errorFrameOf({ message: 'Tool result mismatch' })).toEqual({
      error: 'error',
      message: 'Tool result mismatch',
      traceback: null,
    });
    expect(errorFrameOf('text')).toBeNull();
    expect(errorFrameOf({ other: 1 })).toBeNull();
  });

  test('metaFilesOf lists files and tolerates odd payloads', () => {
    expect(metaFilesOf({ files: [{ file_id: 'f1', filename: 'a.png', size: 3 }, 'junk'] })).toEqual([
      { id: 'f1', name: 'a.png', fields: { file_id: 'f1', filename: 'a.png', size: 3 } },
    ]);
    expect(metaFilesOf(null)).toEqual([]);
    expect(metaFilesOf({ files: 'no' })).toEqual([]);
  });
});
