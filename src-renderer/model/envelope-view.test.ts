import { describe, expect, it } from 'vitest';
import type { EnvelopeDetail } from '../../src-shared/contract';
import { byteSpans, envelopeJson, parsedDelta, prettyWireData, wireLanguage } from './envelope-view';
import { JSON_DISPLAY_DEPTH } from './json-display';

const envelope: EnvelopeDetail = {
  seq: 4,
  leg: 0,
  frame: 4,
  agent: 'a',
  type: 'tool_call',
  final: true,
  delta: '{"q":"x"}',
  extras: { id: 't1', name: 'search' },
  dialect: 'json',
  byteStart: 10,
  byteEnd: 90,
  receivedAt: 5,
};

describe('envelope view', () => {
  it('shows the base fields first, then the extras', () => {
    expect(Object.keys(JSON.parse(envelopeJson(envelope)) as object)).toEqual([
      'type',
      'agent',
      'final',
      'delta',
      'id',
      'name',
    ]);
    expect(JSON.parse(envelopeJson({ ...envelope, control: 'done' }))).toHaveProperty(['(control)'], 'done');
  });

  it('parses a JSON delta and leaves text alone', () => {
    expect(parsedDelta('{"q":"x"}')).toBe('{\n  "q": "x"\n}');
    expect(parsedDelta('{"q":')).toBeNull();
    // Thousands of levels read as a few lines, not a staircase of brackets.
    const deep = parsedDelta(`${'['.repeat(3000)}1${']'.repeat(3000)}`) ?? '';
    expect(deep.split('\n')).toHaveLength(2 * JSON_DISPLAY_DEPTH + 1);
    expect(deep).toContain('"[… 1 item]"');
    expect(parsedDelta('hello')).toBeNull();
    expect(parsedDelta('42')).toBeNull();
  });

  it('picks the wire language from the dialect and the data', () => {
    expect(wireLanguage('json', '{"type":"text"}')).toBe('json');
    expect(wireLanguage('xml', '<content-block-text>x')).toBe('xml');
    expect(wireLanguage('raw', '<meta_init data="{}">')).toBe('xml');
    expect(wireLanguage('json', '[DONE]')).toBe('json');
    expect(wireLanguage('json', 'DONE')).toBe('plaintext');
    expect(prettyWireData('[DONE]')).toBe('[DONE]');
  });

  it('cuts a byte window into spans by the envelope and the finding, the finding on top', () => {
    expect(byteSpans(0, 100, { start: 10, end: 90 }, { start: 40, end: 50 })).toEqual([
      { start: 0, end: 10, mark: 'none' },
      { start: 10, end: 40, mark: 'envelope' },
      { start: 40, end: 50, mark: 'finding' },
      { start: 50, end: 90, mark: 'envelope' },
      { start: 90, end: 100, mark: 'none' },
    ]);
    expect(byteSpans(20, 30, { start: 0, end: 100 }, null)).toEqual([{ start: 20, end: 30, mark: 'envelope' }]);
    expect(byteSpans(0, 10, null, { start: 5, end: 50 })).toEqual([
      { start: 0, end: 5, mark: 'none' },
      { start: 5, end: 10, mark: 'finding' },
    ]);
  });
});
