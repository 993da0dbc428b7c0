import { describe, expect, it } from 'vitest';
import { fileSourceLine } from './session-state';

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
