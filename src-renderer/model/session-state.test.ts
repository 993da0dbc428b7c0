import { describe, expect, it } from 'vitest';
import { decodedAsLine, fileSourceLine } from './session-state';

describe('fileSourceLine', () => {
  it("names the path and importer, a HAR's entries opened and the check report that opened a recording", () => {
    expect(fileSourceLine({ kind: 'file', path: '/runs/a.sse', importer: 'sse' })).toBe('/runs/a.sse (sse)');
    expect(fileSourceLine({ kind: 'file', path: '/runs/d.har', importer: 'har', entries: [1, 4] })).toBe(
      '/runs/d.har (har, entries 1, 4)',
    );
    expect(fileSourceLine({ kind: 'file', path: '/runs/d.har', importer: 'har', entries: [0] })).toBe(
      '/runs/d.har (har, entry 0)',
    );
    expect(
      fileSourceLine({
        kind: 'file',
        path: 'C:\\runs\\r.recording',
        importer: 'recording',
        report: 'C:\\ci\\report.xml',
      }),
    ).toBe('C:\\runs\\r.recording (recording, opened from the check report report.xml)');
    expect(fileSourceLine({ kind: 'file', path: '/tmp/u/x', importer: 'sse', uploaded: true })).toBe(
      'uploaded file (sse)',
    );
    // A live run's received bytes decoded again: the run, not the internal copy's path.
    expect(
      fileSourceLine({
        kind: 'file',
        path: '/tmp/u/1a2b-run.recording',
        importer: 'recording',
        copyOf: { method: 'POST', url: 'http://127.0.0.1:8000/agent/run' },
      }),
    ).toBe('received from POST http://127.0.0.1:8000/agent/run (recording)');
  });
});

describe('decodedAsLine', () => {
  it('calls a stream the fallback decoded by what its events carried', () => {
    expect(decodedAsLine({ format: 'json-events', detection: { by: 'fallback', data: 'text' } })).toBe(
      'Decoded as text events — no dialect recognised this stream: its events are shown as they came',
    );
    expect(decodedAsLine({ format: 'json-events', detection: { by: 'chosen', data: 'json' } })).toBe(
      'Decoded as JSON events — chosen by you',
    );
    expect(decodedAsLine({ format: 'json-events', detection: { by: 'fallback', data: 'mixed' } })).toMatch(
      /^Decoded as JSON and text events — /,
    );
  });

  it('must not: a dialect of one data keeps its label whatever it is told', () => {
    expect(decodedAsLine({ format: 'openai-chat', detection: { by: 'content', data: 'text' } })).toBe(
      "Decoded as OpenAI Chat Completions — from the stream's own events",
    );
    expect(decodedAsLine({ format: null })).toBeNull();
  });
});
