import { describe, expect, it } from 'vitest';
import { sniffFrame } from '../sniff';
import { announcesRaw } from './announced';

const item = (data: string, before = ''): boolean =>
  announcesRaw(sniffFrame({ event: '', data: `${before}<meta_init agent="a" data="${data}"/>` }));

describe('announcesRaw', () => {
  it('a meta_init whose data announces raw, however its JSON and HTML spell it', () => {
    expect(item('{&quot;format&quot;: &quot;raw&quot;}')).toBe(true);
    expect(item('{&quot;format&quot;:&quot;raw&quot;}', '  ')).toBe(true);
    // Escapes that spell "raw" without the letters in a row.
    expect(item('{&quot;format&quot;: &quot;&#114;aw&quot;}')).toBe(true);
    expect(item('{&quot;format&quot;: &quot;&#x72;aw&quot;}')).toBe(true);
    expect(item('{&quot;format&quot;: &quot;\\u0072aw&quot;}')).toBe(true);
  });

  it('not: another format, raw elsewhere in the data, another item, unreadable data', () => {
    expect(
      item('{&quot;format&quot;: &quot;xml&quot;, &quot;user_query&quot;: &quot;' + 'q'.repeat(5000) + '&quot;}'),
    ).toBe(false);
    expect(item('{&quot;format&quot;: &quot;xml&quot;, &quot;user_query&quot;: &quot;raw data&quot;}')).toBe(false);
    expect(item('{&quot;format&quot;: &quot;raw')).toBe(false);
    expect(announcesRaw(sniffFrame({ event: '', data: '<text agent="a">{"format": "raw"}</text>' }))).toBe(false);
  });
});
