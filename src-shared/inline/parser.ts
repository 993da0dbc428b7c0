import { createArgStream, type ArgStream } from './arg-stream';
import { createJsonCallParser } from './json-calls';
import { closesImpliedThink, IMPLIED_THINK_MESSAGE } from './implied-think';
import { createCharFinder, createScannerPool, type MarkerScanner } from './markers';
import { createSegmentWriter, type Family, type Open } from './segments';
import {
  isSentinelAttempt,
  newSentinelCandidate,
  SENTINEL_END,
  stepSentinel,
  type SentinelCandidate,
} from './sentinel';
import { FILE_TOOLS, topTagOpening, vocabularyOf } from './tag-vocabulary';
import { ParamValue } from './param-value';
import { newTagCandidate, readTag, stepTag, type ReadTag, type TagCandidate } from './tags';
import { createTextRuns, quote } from './text-runs';
import { createTurnChecks } from './turn';
import type { InlineOptions, InlineParser, InlineRuleId, SegmentSink } from './types';
import { closeUnclosedSegment } from './unclosed-segment';

/**
 * The incremental in-text parser (docs/inline.md). It reads each character once, holding
 * back only what the next characters decide (a tag or sentinel being read, a possible closing
 * marker), so the cost is linear in the text and what it has released never shows a partial
 * marker. Forms recognised:
 *
 * - XML tool tags (docs/protocols/inline-tool-tags.md): `<thinking>` → reasoning; a configured
 *   tool tag whose children are parameters → tool_call; `<attempt_completion><result>` →
 *   completion; `<tool_result tool_name="…">` → tool_result.
 * - Segment tags (docs/protocols/segments.md): `<write_file path="…">`, `<run_bash>`, and
 *   `<tool name="…"><arguments><arg name="…">`, whose write_file / patch_file / run_bash forms
 *   stream only the file content or command.
 * - Sentinels: `[[SEG_START {json}]] … [[SEG_END]]`.
 *
 * Anything else is text. Whitespace between segments is not a segment of its own.
 */
export type { InlineParser } from './types';

type State = 'text' | 'tag' | 'sentinel' | 'content' | 'body' | 'value' | 'stream';

export function createInlineParser(sink: SegmentSink, options: InlineOptions): InlineParser {
  if (options.mode === 'json') return createJsonCallParser(sink);
  const { tools, topPrefixes, topExact, textTriggers } = vocabularyOf(options);
  const nextTrigger = createCharFinder(textTriggers);
  /** The opening tags of the actions (a configured tool tag, <attempt_completion>), as written without attributes. */
  const actionOpeners = [...tools.keys(), 'attempt_completion'].map((name) => `<${name}>`);

  let state: State = 'text';
  /** Absolute offset in the block of the character being read. */
  let pos = 0;

  let tag: TagCandidate = newTagCandidate();
  let tagStart = 0;
  /** Where a tag candidate returns when it fails or is consumed. */
  let tagReturn: 'text' | 'body' = 'text';
  let sentinel: SentinelCandidate = newSentinelCandidate();

  const scannerFor = createScannerPool();
  let scanner: MarkerScanner = scannerFor(['<']);
  let argStream: ArgStream | null = null;

  const report = (rule: InlineRuleId, message: string, offset = pos): void => sink.diagnostic(rule, message, offset);
  const turn = createTurnChecks(report, tools);
  const runs = createTextRuns(sink, (from, content) => turn.checkAfterAction(from, `text ${quote(content.trim())}`));
  const { text, closeText, dropPendingSpace } = runs;
  const segments = createSegmentWriter(sink, runs, turn);
  const { emit, openSegment, closeSegment, setParam, startDeferredIfReady } = segments;
  /** The raw content of a tool form shows its parameters as written; a file tool's does not. */
  const param = new ParamValue(scannerFor, (raw) => {
    if (segments.open?.family !== 'file_tool') emit(raw);
  });

  // ── states ────────────────────────────────────────────────────────────────────────────

  function readText(s: string, i: number): number {
    const next = textTriggers === '' ? -1 : nextTrigger(s, i);
    if (next === -1) {
      text(s.slice(i), pos);
      pos += s.length - i;
      return s.length;
    }
    text(s.slice(i, next), pos);
    pos += next - i;
    tagStart = pos;
    if (s.charAt(next) === '<') {
      tag = newTagCandidate();
      tagReturn = 'text';
      state = 'tag';
    } else {
      sentinel = newSentinelCandidate();
      state = 'sentinel';
    }
    pos++;
    return next + 1;
  }

  function allowedInText(name: string, _closing: boolean, exact: boolean): boolean {
    return exact ? topExact.has(name) : topPrefixes.has(name);
  }

  const anyName = (): boolean => true;

  /** Give a failed candidate back to the state it came from, as what it is: text. */
  function releaseCandidate(candidate: string): void {
    if (tagReturn === 'text') {
      state = 'text';
      text(candidate, tagStart);
    } else {
      state = 'body';
      const family = segments.open?.family;
      if (family === 'action' || family === 'completion' || family === 'xml_tool') emit(candidate);
    }
  }

  function readTagChar(s: string, i: number): number {
    const c = s.charAt(i);
    const step = stepTag(tag, c, tagReturn === 'text' ? allowedInText : anyName);
    if (step === 'fail') {
      releaseCandidate(tag.text);
      return i;
    }
    pos++;
    if (step === 'done') {
      const read = readTag(tag);
      if (!read) releaseCandidate(tag.text);
      else if (tagReturn === 'text') onTopTag(read, tag.text);
      else onBodyTag(read, tag.text);
    }
    return i + 1;
  }

  function onTopTag(t: ReadTag, raw: string): void {
    if (closesImpliedThink(t, runs)) {
      runs.claim('reasoning', tagStart, pos);
      report('inline.think-open-implied', IMPLIED_THINK_MESSAGE, tagStart);
      state = 'text';
      return;
    }
    const opening = topTagOpening(t);
    if (opening.read === 'text') {
      if (t.closing)
        report(
          'inline.mismatched-close',
          `</${t.name}> closes nothing: no <${t.name}> is open here. It is kept as text.`,
          tagStart,
        );
      state = 'text';
      text(raw, tagStart);
      return;
    }
    dropPendingSpace();
    if (opening.read === 'file') {
      const { file } = opening;
      openSegment('file_tool', t.name, file.type, {}, tagStart, file.needsPath).contentArg = file.content;
      return afterBodyOpen(t);
    }
    const { family, type, metadata } = opening;
    if (opening.read === 'content') return enterContent(family, t.name, type, metadata, t);
    openSegment(family, t.name, type, metadata, tagStart);
    afterBodyOpen(t);
  }

  function enterContent(
    family: Family,
    name: string,
    type: string,
    metadata: Record<string, unknown>,
    t: ReadTag,
  ): void {
    openSegment(family, name, type, metadata, tagStart);
    if (t.selfClosing) {
      closeSegment(true, pos);
      state = 'text';
      return;
    }
    // A tool tag or <attempt_completion> inside an unclosed <thinking> ends it (the protocol puts
    // the action after the reasoning, and a model that stops reasoning without closing the tag
    // still acts); the reasoning is flagged as unclosed.
    scanner = scannerFor(family === 'reasoning' ? [`</${name}>`, ...actionOpeners] : [`</${name}>`]);
    state = 'content';
  }

  function afterBodyOpen(t: ReadTag): void {
    if (t.selfClosing) {
      closeSegment(true, pos);
      state = 'text';
      return;
    }
    state = 'body';
  }

  function readContent(s: string, i: number): number {
    const { hit, next } = scanner.scan(s, i, emit);
    pos += next - i;
    if (hit === 0) {
      closeSegment(true, pos);
      state = 'text';
    } else if (hit > 0) {
      const opener = actionOpeners[hit - 1] as string;
      tagStart = pos - opener.length;
      const thinking = segments.open as Open;
      report(
        'inline.unclosed',
        `<${thinking.tag}> is never closed: ${opener} starts before any </${thinking.tag}>. The reasoning ends there and ${opener} is read as the action.`,
        thinking.start,
      );
      closeSegment(false, tagStart);
      onTopTag({ name: opener.slice(1, -1), closing: false, selfClosing: false, attributes: {} }, opener);
    }
    return next;
  }

  function readSentinelChar(s: string, i: number): number {
    const c = s.charAt(i);
    const step = stepSentinel(sentinel, c);
    if (step.kind === 'not-sentinel') {
      if (sentinel.text === '[[' && c === '[') {
        // `[[[SEG_START`: the first bracket is text, the sentinel may start at the second.
        text('[', tagStart);
        tagStart++;
        pos++;
        return i + 1;
      }
      state = 'text';
      text(sentinel.text, tagStart);
      return i;
    }
    pos++;
    if (step.kind === 'invalid') {
      report(
        'inline.invalid-sentinel',
        `Sentinel header ${quote(sentinel.text)} is invalid: ${step.reason}. The marker and what follows it are kept as text.`,
        tagStart,
      );
      state = 'text';
      text(sentinel.text, tagStart);
    } else if (step.kind === 'done') {
      dropPendingSpace();
      openSegment('sentinel', SENTINEL_END, step.type, step.metadata, tagStart);
      scanner = scannerFor([SENTINEL_END]);
      state = 'content';
    }
    return i + 1;
  }

  /** Between the parameters of an action, a completion or a `<tool>`: only tags matter. */
  function readBody(s: string, i: number): number {
    const at = s.indexOf('<', i);
    const end = at === -1 ? s.length : at;
    if (end > i && segments.open?.family !== 'file_tool') emit(s.slice(i, end));
    pos += end - i;
    if (at === -1) return s.length;
    tag = newTagCandidate();
    tagReturn = 'body';
    tagStart = pos;
    state = 'tag';
    pos++;
    return at + 1;
  }

  function onBodyTag(t: ReadTag, raw: string): void {
    const seg = segments.open as Open;
    const rawShown = seg.family !== 'file_tool';
    state = 'body';
    if (t.closing) {
      if (t.name === seg.tag) {
        closeSegment(true, pos);
        state = 'text';
        return;
      }
      if (rawShown) emit(raw);
      if (seg.family === 'xml_tool' || seg.family === 'file_tool') {
        if (t.name === 'arguments') return;
      }
      report(
        'inline.mismatched-close',
        `</${t.name}> inside <${seg.tag}> closes no parameter; <${seg.tag}> is closed by </${seg.tag}>. It is kept in the raw content.`,
        tagStart,
      );
      return;
    }
    if (rawShown) emit(raw);
    const isToolForm = seg.family === 'xml_tool' || seg.family === 'file_tool';
    if (isToolForm && t.name === 'arguments') return;
    const name = isToolForm && t.name === 'arg' ? (t.attributes['name'] ?? '') : t.name;
    if (t.selfClosing) {
      setParam(seg, name, '');
      return;
    }
    param.begin(name, t.name);
    if (seg.family === 'file_tool' && seg.contentArg.includes(name)) {
      argStream = createArgStream(param.close, FILE_TOOLS[seg.type]?.markers ?? [], scannerFor);
      state = 'stream';
      startDeferredIfReady(seg);
      return;
    }
    state = 'value';
  }

  /** A parameter value, up to its close tag (param-value.ts). */
  function readValue(s: string, i: number): number {
    const { next, closed } = param.read(s, i);
    pos += next - i;
    if (closed) {
      setParam(segments.open as Open, param.name, param.value());
      state = 'body';
    }
    return next;
  }

  /** A file tool's content argument: streamed as the segment's content, optional raw markers stripped. */
  function readStream(s: string, i: number): number {
    const { next, closed } = (argStream as ArgStream).read(s, i, emit);
    pos += next - i;
    if (closed) {
      argStream = null;
      state = 'body';
    }
    return next;
  }

  const readers: Record<State, (s: string, i: number) => number> = {
    text: readText,
    tag: readTagChar,
    sentinel: readSentinelChar,
    content: readContent,
    body: readBody,
    value: readValue,
    stream: readStream,
  };

  function push(s: string): void {
    // Most deltas of most blocks are more text for the open text segment with nothing that
    // could start a marker: they go straight to the segment, without the state machine.
    if (state === 'text' && runs.textOpen && nextTrigger(s, 0) === -1) {
      sink.content(s);
      pos += s.length;
      return;
    }
    let i = 0;
    while (i < s.length) i = readers[state](s, i);
  }

  function heldText(): string {
    switch (state) {
      case 'tag':
        return tag.text;
      case 'sentinel':
        return sentinel.text;
      case 'stream':
        return argStream?.held() ?? '';
      case 'value':
        return param.held;
      case 'content':
        return scanner.held;
      default:
        return '';
    }
  }

  function end(): void {
    // A candidate still being read at the end is what it looked like: text (or raw content).
    if (state === 'tag') releaseCandidate(tag.text);
    if (state === 'sentinel') {
      if (isSentinelAttempt(sentinel)) {
        report(
          'inline.invalid-sentinel',
          `Sentinel header ${quote(sentinel.text)} is never closed by "]]" before the block ends; it is kept as text.`,
          tagStart,
        );
      }
      state = 'text';
      text(sentinel.text, tagStart);
    }
    if (state !== 'text') {
      if (state === 'stream' || state === 'content') emit(heldText());
      const seg = segments.open;
      const inside = state === 'stream' || state === 'value' ? state : 'segment';
      if (seg) closeUnclosedSegment(seg, inside, param, segments, report, pos);
      state = 'text';
    }
    closeText(pos);
    turn.end(pos);
  }

  return {
    push,
    end,
    held: () => heldText().length + (segments.open && !segments.open.started ? segments.open.deferred.length : 0),
  };
}
