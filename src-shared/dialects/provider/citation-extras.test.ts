import { describe, expect, it } from 'vitest';
import { citationExtras } from './citation-extras';

describe('citationExtras', () => {
  it('keeps the type as citation_type and every other non-null field but those skipped, in wire order', () => {
    const fields = { type: 'url_citation', url: 'https://a.example', title: null, start_index: 0, cited_text: 'x' };
    const extras = citationExtras(fields.type, fields, new Set(['cited_text']));
    expect(Object.entries(extras)).toEqual([
      ['citation_type', 'url_citation'],
      ['url', 'https://a.example'],
      ['start_index', 0],
    ]);
    expect(citationExtras(undefined, {})).toEqual({ citation_type: 'unknown' });
  });

  it('must not: a "__proto__" field from the wire sets the prototype; it stays a plain field', () => {
    const fields = JSON.parse('{"type":"file_citation","__proto__":{"polluted":true}}') as Record<string, unknown>;
    const extras = citationExtras(fields['type'], fields);
    expect(Object.getPrototypeOf(extras)).toBe(Object.prototype);
    expect(Object.hasOwn(extras, '__proto__')).toBe(true);
    expect((extras as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
