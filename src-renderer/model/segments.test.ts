import { describe, expect, it } from 'vitest';
import type { SegmentPayload } from '../../src-shared/contract';
import { fileLanguage, hasProtocolSegments, otherMetadata, segmentLabel, segmentPresentation } from './segments';

const segment = (type: string, metadata: Record<string, unknown> = {}): SegmentPayload => ({
  id: 'seg_1',
  type,
  metadata,
  params: {},
  content: '',
  complete: true,
  start: 0,
  end: 0,
});

describe('segment presentation', () => {
  it.each([
    ['text', 'text'],
    ['reasoning', 'reasoning'],
    ['tool_call', 'tool-call'],
    ['completion', 'completion'],
    ['write_file', 'file'],
    ['patch_file', 'file'],
    ['run_bash', 'command'],
    ['tool_result', 'tool-result'],
    ['citation_note', 'other'],
  ])('%s is shown as %s', (type, presentation) => {
    expect(segmentPresentation(type)).toBe(presentation);
  });

  it("labels known types in words and keeps a sentinel's own type", () => {
    expect(segmentLabel('run_bash')).toBe('bash');
    expect(segmentLabel('my_type')).toBe('my_type');
  });

  it('shows segments only when the model wrote some protocol', () => {
    expect(hasProtocolSegments(undefined)).toBe(false);
    expect(hasProtocolSegments([segment('text')])).toBe(false);
    expect(hasProtocolSegments([segment('text'), segment('reasoning')])).toBe(true);
  });

  it("names a file's language by its extension, a patch as a diff", () => {
    expect(fileLanguage(segment('write_file', { path: '/tmp/a.py' }))).toBe('py');
    expect(fileLanguage(segment('write_file', { path: '/tmp.d/Makefile' }))).toBe('text');
    expect(fileLanguage(segment('patch_file', { path: 'a.py' }))).toBe('diff');
  });

  it('lists metadata the header does not show', () => {
    expect(otherMetadata(segment('write_file', { path: '/a', mode: 'append', n: [1] }))).toEqual([
      ['mode', 'append'],
      ['n', '[1]'],
    ]);
  });
});
