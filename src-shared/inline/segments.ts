import type { TextRuns } from './text-runs';
import type { TurnChecks } from './turn';
import type { SegmentSink } from './types';

/** What a segment is while the parser is inside it. */
export type Family =
  | 'text'
  | 'reasoning'
  /**
   * `<think>`: the reasoning open models (DeepSeek-R1, QwQ, Qwen3) write into their text when no
   * server-side parser takes it out. Reasoning, but no part of the tool protocol: it asks for
   * no action, and only its own closing tag ends it.
   */
  | 'think'
  | 'action'
  | 'completion'
  | 'tool_result'
  | 'write_file'
  | 'run_bash'
  | 'xml_tool'
  | 'file_tool'
  | 'sentinel';

export interface Open {
  family: Family;
  /** The tag whose closing tag ends the segment (`search`, `tool`, …). */
  tag: string;
  /** Set once SEGMENT_START went out (a file tool defers it until its path is known). */
  started: boolean;
  type: string;
  metadata: Record<string, unknown>;
  start: number;
  /** Content produced before a deferred start. */
  deferred: string;
  params: Record<string, string>;
  /** For a file tool: the argument whose value is the segment's content. */
  contentArg: readonly string[];
}

/**
 * The segment the in-text parser is inside, and what it sends the sink for it. A file tool
 * (`<tool name="write_file">`) defers its SEGMENT_START until its path parameter is read, so
 * the segment starts with its metadata complete; what it produced before is held and sent
 * then, in order.
 */
export interface SegmentWriter {
  /** The segment being read, or null between segments. */
  readonly open: Open | null;
  /** Content of the open segment (held while its start is deferred). */
  emit: (content: string) => void;
  openSegment: (
    family: Family,
    tagName: string,
    type: string,
    metadata: Record<string, unknown>,
    start: number,
    deferStart?: boolean,
  ) => Open;
  closeSegment: (complete: boolean, end: number) => void;
  /** A parameter of `seg` was read; a file tool's path starts its deferred segment. */
  setParam: (seg: Open, name: string, value: string) => void;
  /** A file tool's content begins: start the segment if its path is already known. */
  startDeferredIfReady: (seg: Open) => void;
}

export function createSegmentWriter(sink: SegmentSink, runs: TextRuns, turn: TurnChecks): SegmentWriter {
  let open: Open | null = null;

  function emit(content: string): void {
    if (content === '' || !open) return;
    if (!open.started) open.deferred += content;
    else sink.content(content);
  }

  function startDeferred(seg: Open): void {
    if (seg.started) return;
    seg.started = true;
    runs.startSegment(seg.type, seg.metadata, seg.start);
    for (const [name, value] of Object.entries(seg.params)) sink.param(name, value);
    if (seg.deferred !== '') sink.content(seg.deferred);
    seg.deferred = '';
  }

  return {
    get open() {
      return open;
    },
    emit,
    openSegment(family, tagName, type, metadata, start, deferStart = false) {
      runs.closeText(start);
      const seg: Open = {
        family,
        tag: tagName,
        started: !deferStart,
        type,
        metadata,
        start,
        deferred: '',
        params: {},
        contentArg: [],
      };
      open = seg;
      if (!deferStart) runs.startSegment(type, metadata, start);
      if (family === 'action' || family === 'completion') turn.beginAction(tagName, start);
      else if (family === 'reasoning') turn.reasoning(start);
      return seg;
    },
    closeSegment(complete, end) {
      const seg = open;
      if (!seg) return;
      open = null;
      startDeferred(seg);
      sink.end(complete, end);
      turn.segmentEnded(seg, complete, end);
    },
    setParam(seg, name, value) {
      seg.params[name] = value;
      if (seg.started) sink.param(name, value);
      if (seg.family === 'file_tool' && name === 'path') {
        seg.metadata['path'] = value;
        startDeferred(seg);
      }
    },
    startDeferredIfReady(seg) {
      if (!seg.started && 'path' in seg.metadata) startDeferred(seg);
    },
  };
}
