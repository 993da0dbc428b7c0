import { describe, expect, it, vi } from 'vitest';
import { createAnnouncedFormatCheck } from './announced-format';

const announced = (payload: string): string | undefined => createAnnouncedFormatCheck().push('a', payload, true);

describe('the format a meta_init payload announces', () => {
  it("the upstream formatter's layout, format first and json: read without parsing the payload", () => {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(announced(`{"format": "json", "user_query": "${'q'.repeat(4000)}", "tools": [{"name": "f"}]}`)).toBe(
        'json',
      );
      expect(announced('{"format":"json"}')).toBe('json');
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('as JSON.parse reads it otherwise: another format, format later, a duplicate key, an escaped one', () => {
    expect(announced('{"format": "xml", "user_query": "q"}')).toBe('xml');
    expect(announced('{"user_query": "q", "format": "raw"}')).toBe('raw');
    // JSON.parse keeps the last of duplicate keys, spelt plainly or with an escape.
    expect(announced('{"format": "json", "tools": [], "format": "xml"}')).toBe('xml');
    expect(announced(String.raw`{"format": "json", "tools": [], "form\u0061t": "xml"}`)).toBe('xml');
    // A nested "format" is not the announcement.
    expect(announced('{"format": "json", "tools": [{"schema": {"format": "uri"}}]}')).toBe('json');
    expect(announced('{"user_query": "q"}')).toBeUndefined();
    expect(announced('{"format": "xml", "user_query": ')).toBeUndefined();
  });

  it('a payload chunked over several envelopes is read once its final one arrives', () => {
    const check = createAnnouncedFormatCheck();
    expect(check.push('a', '{"format": "x', false)).toBeUndefined();
    expect(check.push('b', '{"format": "json"}', true)).toBe('json');
    expect(check.push('a', 'ml"}', true)).toBe('xml');
  });
});
