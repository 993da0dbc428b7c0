import { describe, expect, it } from 'vitest';
import { redactBody, redactHeaders, redactUrl } from './redact';
import { redactTokenShapes } from './token-shapes';

/** Made-up credentials in each vendor's documented shape (none is a real key). */
const TOKENS = [
  'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  'sk-AbCdEfGhIjKlMnOpQrStUvWx',
  'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
  'github_pat_11ABCDEFG0123456789_abcdefghijklmnop',
  'xoxb-123456789012-abcdefghijkl',
  'AKIAIOSFODNN7EXAMPLE',
  'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
  'sk_live_abcdefghijklmnop1234',
  'hf_abcdefghijklmnopqrstuvwxyz0123456789',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
];

describe('credentials found by their shape', () => {
  it.each(TOKENS)('%s is redacted in a prompt, a header with a plain name and a URL path', (token) => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: `my key is ${token}, use it` }] });
    expect(redactBody(body, 'application/json')).not.toContain(token);
    expect(redactBody(body, 'application/json')).toContain('my key is [redacted], use it');
    expect(redactHeaders([['x-forwarded-for-tool', token]])).toEqual([['x-forwarded-for-tool', '[redacted]']]);
    expect(redactUrl(`https://api.example/keys/${token}/usage`)).toBe('https://api.example/keys/[redacted]/usage');
  });

  it('leaves ordinary text alone: words, ids, hashes and short prefixes', () => {
    const text =
      'ask-me sk-short task_live_x AKIA1234 eyJ.eyJ.x msg_01XFDUDYJgAACzvnptvVoYEL chatcmpl-9aBcDeF toolu_01A09q90qw90lq917835lq9 3b4f2a9c8d7e6f5a4b3c2d1e0f9a8b7c';
    expect(redactTokenShapes(text, '[redacted]')).toBe(text);
  });
});
