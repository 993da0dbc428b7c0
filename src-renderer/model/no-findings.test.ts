import { describe, expect, it } from 'vitest';
import { noFindingsText } from './no-findings';

const refused = {
  kind: 'network',
  message: 'Connection refused by 127.0.0.1:9: nothing is listening there. Is the server running?',
  code: 'ECONNREFUSED',
} as const;

describe('the diagnostics view with no finding', () => {
  it('says a session that got a stream checks out', () => {
    expect(noFindingsText({ envelopes: 12 })).toBe(
      'The decoder found nothing wrong with this stream: framing, dialect and reconstruction all check out.',
    );
  });

  it('does not vouch for a stream a failed connection never got', () => {
    const text = noFindingsText({ envelopes: 0, failure: refused });
    expect(text).not.toContain('check out');
    expect(text).toBe(
      'No stream came to check. The source failed before any envelope could be decoded: the message above says why.',
    );
  });

  it('limits itself to what arrived when the source failed mid-stream', () => {
    expect(noFindingsText({ envelopes: 3, failure: refused })).toBe(
      'Nothing wrong in what arrived before the source failed: the message above says why it failed.',
    );
  });
});
