import { describe, expect, it } from 'vitest';
import { fileNameFor } from './formats';

describe('export file names', () => {
  it('names a file after the session, with the format’s extension', () => {
    expect(fileNameFor('POST 127.0.0.1:8787 /agent/run · tour', 'har')).toBe(
      'POST 127.0.0.1-8787 -agent-run · tour.har',
    );
    expect(fileNameFor('Replay of run.xml.sse', 'recording')).toBe('Replay of run.xml.sse.recording');
  });

  it('never yields a path, a hidden file or an empty name', () => {
    expect(fileNameFor('../../etc/passwd', 'raw-sse')).toBe('etc-passwd.sse');
    expect(fileNameFor('  ..  ', 'transcript-md')).toBe('session.md');
    expect(fileNameFor('a\u0000b\nc', 'blocks-json')).toBe('a-b-c.blocks.json');
    expect(fileNameFor('x'.repeat(200), 'har')).toHaveLength(84);
  });
});
