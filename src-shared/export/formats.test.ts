import { describe, expect, it } from 'vitest';
import { fileNameFor } from './formats';

describe('export file names', () => {
  it('names a file after the session, with the format’s extension', () => {
    expect(fileNameFor('POST 127.0.0.1:8787 /agent/run · tour', 'har')).toBe('POST-127.0.0.1-8787-agent-run-tour.har');
    expect(fileNameFor('Replay of run.xml.sse', 'recording')).toBe('Replay-of-run.xml.sse.recording');
    expect(fileNameFor('Demo agent: Tour (2) · json', 'raw-sse')).toBe('Demo-agent-Tour-2-json.sse');
    expect(fileNameFor('東京 résumé', 'transcript-md')).toBe('東京-résumé.md');
    // A file's session named after it: its extension once, not twice.
    expect(fileNameFor('grounding.sse', 'raw-sse')).toBe('grounding.sse');
    expect(fileNameFor('run.HAR', 'har')).toBe('run.har');
    expect(fileNameFor('grounding.sse', 'har')).toBe('grounding.sse.har');
    expect(fileNameFor('.sse', 'raw-sse')).toBe('session.sse');
  });

  it('never yields a path, a hidden file or an empty name', () => {
    expect(fileNameFor('../../etc/passwd', 'raw-sse')).toBe('etc-passwd.sse');
    expect(fileNameFor('  ..  ', 'transcript-md')).toBe('session.md');
    expect(fileNameFor('a\u0000b\nc', 'blocks-json')).toBe('a-b-c.blocks.json');
    expect(fileNameFor('x'.repeat(200), 'har')).toHaveLength(84);
    expect(fileNameFor(`${'a'.repeat(79)} b`, 'har')).toBe(`${'a'.repeat(79)}.har`);
  });
});
