import { describe, expect, it } from 'vitest';
import { createSegmentWriter } from './segments';
import { createTextRuns } from './text-runs';
import { createTurnChecks } from './turn';
import type { SegmentSink } from './types';

/** A writer over a sink that records its calls in order. */
function writer(): { calls: unknown[][]; segments: ReturnType<typeof createSegmentWriter> } {
  const calls: unknown[][] = [];
  const sink: SegmentSink = {
    start: (...args) => calls.push(['start', ...args]),
    content: (delta) => calls.push(['content', delta]),
    param: (name, value) => calls.push(['param', name, value]),
    retype: (type) => calls.push(['retype', type]),
    end: (complete, offset) => calls.push(['end', complete, offset]),
    diagnostic: (rule, _message, offset) => calls.push(['diagnostic', rule, offset]),
  };
  const turn = createTurnChecks((rule, message, offset) => sink.diagnostic(rule, message, offset), new Map());
  return { calls, segments: createSegmentWriter(sink, createTextRuns(sink), turn) };
}

describe('the segment writer', () => {
  it('sends a segment straight through when its start is not deferred', () => {
    const { calls, segments } = writer();
    const seg = segments.openSegment('reasoning', 'thinking', 'reasoning', {}, 0);
    segments.emit('why');
    segments.setParam(seg, 'k', 'v');
    segments.closeSegment(true, 20);
    expect(calls).toEqual([
      ['start', 'seg_1', 'reasoning', {}, 0],
      ['content', 'why'],
      ['param', 'k', 'v'],
      ['end', true, 20],
    ]);
    expect(segments.open).toBeNull();
  });

  it('holds a file tool until its path is read, then sends the start with the path, its params and its content in order', () => {
    const { calls, segments } = writer();
    const seg = segments.openSegment('file_tool', 'tool', 'write_file', {}, 4, true);
    segments.emit('<arg name="content">');
    segments.startDeferredIfReady(seg);
    expect(calls).toEqual([]);
    segments.setParam(seg, 'mode', 'w');
    segments.setParam(seg, 'path', 'a.txt');
    segments.emit('more');
    segments.closeSegment(true, 50);
    expect(calls).toEqual([
      ['start', 'seg_1', 'write_file', { path: 'a.txt' }, 4],
      ['param', 'mode', 'w'],
      ['param', 'path', 'a.txt'],
      ['content', '<arg name="content">'],
      ['content', 'more'],
      ['end', true, 50],
    ]);
  });

  it('a deferred segment that never got its path still starts when it closes, and the turn checks it', () => {
    const { calls, segments } = writer();
    segments.openSegment('file_tool', 'tool', 'write_file', {}, 0, true);
    segments.emit('body');
    segments.closeSegment(true, 9);
    expect(calls).toEqual([
      ['start', 'seg_1', 'write_file', {}, 0],
      ['content', 'body'],
      ['end', true, 9],
      ['diagnostic', 'inline.missing-param', 9],
    ]);
  });
});
