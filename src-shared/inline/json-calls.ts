import { createCharFinder, createMarkerScanner } from './markers';
import { argumentsOf, ARGUMENT_KEYS, CALL_KEYS } from './json-call-shape';
import { FENCE, stepOpener, type Wrapper } from './json-call-wrappers';
import { createJsonScanner, type JsonScanner, type JsonStep } from './json-scan';
import { createTextRuns, isSpace, quote } from './text-runs';
import type { InlineParser, InlineRuleId, SegmentSink } from './types';

/**
 * The `json` strategy of docs/protocols/segments.md: models without native tool calling write
 * their calls as JSON in the text (docs/inline.md, "JSON tool calls"): an object with a string
 * `name` and an object of `arguments` (or `args`, `parameters`), or an array of such objects;
 * bare, in a fenced ```json block, or inside `<tool_call>…</tool_call>` (the Hermes format).
 *
 * Holdback: a candidate (`{`, `[`, a fence or `<tool_call>` opener) is held, shown as nothing,
 * until it is decided: it becomes a tool call once its `name` and the start of its arguments
 * have been read (then the rest of the object streams as the segment's content), and text as
 * soon as it cannot be one (a key that is no tool-call key, a value of the wrong kind, invalid
 * JSON, or an object that closes without both). JSON that is not a tool call is text, to its
 * end. Each character is read once; what is held is capped at MAX_JSON_HOLD.
 */
export const MAX_JSON_HOLD = 16_384;

/** The characters that can start a candidate in text. */
export const JSON_CALL_TRIGGERS = '{[<`';

/** The call object being read. */
interface Call {
  start: number;
  raw: string;
  name?: string;
  lastKey: string;
  hasArguments: boolean;
  started: boolean;
}

type Phase = 'text' | 'opener' | 'gap' | 'json' | 'skip' | 'after' | 'code';

export function createJsonCallParser(sink: SegmentSink): InlineParser {
  const runs = createTextRuns(sink);
  const nextTrigger = createCharFinder(JSON_CALL_TRIGGERS);
  let phase: Phase = 'text';
  /** Offset in the block of the character being read. */
  let pos = 0;

  // The candidate: what is held while it is undecided, from `heldStart`.
  let held = '';
  let heldStart = 0;
  let accepted = false;
  let wrapper: Wrapper | null = null;
  let opener = '';
  /** Depth of the call objects: 1 for a bare object, 2 for the elements of an array. */
  let callDepth = 1;
  let call: Call | null = null;
  let rejected = '';
  /** After a value inside a wrapper: white space and how much of the closing marker was read. */
  let after = '';
  const fenceEnd = createMarkerScanner([`\n${FENCE}`]);
  /** Content of the open segment not yet given to the sink (flushed once per delta). */
  let pending = '';

  const report = (rule: InlineRuleId, message: string, offset: number): void => {
    flush();
    sink.diagnostic(rule, message, offset);
  };

  function flush(): void {
    if (pending === '') return;
    sink.content(pending);
    pending = '';
  }

  function startCall(c: Call): void {
    runs.closeText(c.start);
    runs.dropPendingSpace();
    c.started = true;
    runs.startSegment('tool_call', c.name === undefined ? {} : { tool_name: c.name }, c.start);
    pending += c.raw;
  }

  function endCall(c: Call, complete: boolean, end: number, closers = ''): void {
    if (!c.started) startCall(c);
    flush();
    const params = argumentsOf(c.raw + closers);
    if (typeof params === 'string') {
      if (complete)
        report('inline.missing-param', `The JSON tool call ${quote(c.raw)} has no parameters: ${params}.`, c.start);
    } else {
      for (const [name, value] of Object.entries(params)) sink.param(name, value);
    }
    if (complete && c.name === undefined)
      report(
        'inline.missing-param',
        `The JSON tool call ${quote(c.raw)} has no "name" string, which names the tool.`,
        c.start,
      );
    sink.end(complete, end);
    call = null;
  }

  const events = {
    key(depth: number, key: string): void {
      if (depth !== callDepth || !call) return;
      call.lastKey = key;
      if (!accepted && !CALL_KEYS.has(key)) rejected = `its key "${key}" is no tool-call key`;
    },
    valueStart(depth: number, first: string): void {
      if (depth === callDepth - 1) {
        if (first === '{') call = { start: pos, raw: '', lastKey: '', hasArguments: false, started: false };
        else if (!accepted) rejected = 'its elements are not objects';
        else
          report(
            'inline.missing-param',
            `An element of the JSON tool-call array starts with ${quote(first)}: it is not a tool call object.`,
            pos,
          );
        return;
      }
      if (depth !== callDepth || !call) return;
      if (call.lastKey === 'name' && first !== '"' && !accepted) rejected = 'its "name" is not a string';
      if (ARGUMENT_KEYS.includes(call.lastKey)) {
        if (first === '{' || first === '"') call.hasArguments = true;
        else if (!accepted) rejected = `its "${call.lastKey}" is not an object`;
      }
    },
    stringValue(depth: number, value: string | undefined): void {
      if (depth === callDepth && call?.lastKey === 'name' && value !== undefined) call.name = value;
    },
    close(depth: number): void {
      if (depth !== callDepth - 1 || !call) return;
      call.raw += '}';
      if (call.started) pending += '}';
      pos++;
      if (!call.started && !accepted) rejected = 'it closes without a "name" and "arguments"';
      else endCall(call, true, pos);
      pos--;
    },
  };

  /** One reader for every candidate of the block, reset at each. */
  const scanner: JsonScanner = createJsonScanner(events);

  /** The candidate is a tool call: what was held before its first call object is markup, swallowed. */
  function accept(c: Call): void {
    accepted = true;
    held = '';
    runs.closeText(heldStart);
    startCall(c);
  }

  /** Give the held candidate back as text; `skipRest`: the JSON goes on, read as text to its end. */
  function release(skipRest: boolean): void {
    runs.text(held, heldStart);
    held = '';
    call = null;
    wrapper = null;
    phase = skipRest ? 'skip' : 'text';
  }

  function begin(c: string): void {
    held = c;
    heldStart = pos;
    accepted = false;
    call = null;
    rejected = '';
    if (c === '<' || c === '`') {
      opener = c;
      phase = 'opener';
    } else {
      startJson(c);
    }
  }

  function startJson(c: string): void {
    scanner.reset();
    callDepth = c === '[' ? 2 : 1;
    // A bare object is the call; an array's calls start at its elements (valueStart).
    call = c === '{' ? { start: pos, raw: c, lastKey: '', hasArguments: false, started: false } : null;
    phase = 'json';
    scanner.step(c);
  }

  /** One character of a wrapper's opening marker; false when the candidate fails (the character is read again). */
  function readOpener(c: string): boolean {
    const step = stepOpener(opener, c);
    if (step.kind === 'fail') return false;
    opener += c;
    if (step.kind === 'code') {
      // Code, read as text to its closing fence.
      held = opener;
      release(false);
      fenceEnd.reset();
      phase = 'code';
      return true;
    }
    held += c;
    if (step.kind === 'wrapper') {
      wrapper = step.wrapper;
      phase = 'gap';
    }
    return true;
  }

  function readJson(c: string): boolean {
    const step: JsonStep = scanner.step(c);
    if (typeof step === 'object') {
      if (!accepted) return false;
      breakCall(step.error);
      return false;
    }
    // The closing brace of a call is taken by the close event, which also ends the call.
    if (call) call.raw += c;
    if (!accepted) {
      held += c;
      if (rejected !== '' || step === 'done') {
        release(step !== 'done');
        return true;
      }
      if (call && !call.started && call.name !== undefined && call.hasArguments) accept(call);
      else if (held.length > MAX_JSON_HOLD) {
        release(true);
        return true;
      }
    } else if (call) {
      if (!call.started && call.name !== undefined && call.hasArguments) startCall(call);
      else if (call.started) pending += c;
    }
    if (step === 'done') {
      after = '';
      phase = wrapper ? 'after' : 'text';
    }
    return true;
  }

  /** Invalid JSON inside an accepted candidate: the open call ends there, incomplete; the rest is text. */
  function breakCall(why: string): void {
    const what = call ? `The JSON tool call ${quote(call.raw)}` : 'The JSON array of tool calls';
    report(
      'inline.unclosed',
      `${what} breaks off at character ${pos}: ${why}. What follows is read as text.`,
      call?.start ?? heldStart,
    );
    if (call) endCall(call, false, pos);
    wrapper = null;
    phase = 'text';
  }

  /** After a value inside a wrapper: white space, then its closing marker or another call. */
  function readAfter(c: string): boolean {
    const w = wrapper as Wrapper;
    const progress = after.trimStart();
    if (progress === '' && isSpace(c)) {
      after += c;
      return true;
    }
    if (progress === '' && (c === '{' || c === '[')) {
      begin(c);
      return true;
    }
    if (w.close.startsWith(progress + c)) {
      after += c;
      if (progress + c === w.close) {
        wrapper = null;
        phase = 'text';
      }
      return true;
    }
    report(
      'inline.unclosed',
      `${w.open.trim()} is not closed by ${w.close} after its tool call: ${quote(progress + c)} follows. It is read as text.`,
      pos,
    );
    runs.text(after, pos - after.length);
    wrapper = null;
    phase = 'text';
    return false;
  }

  /** JSON that is not a tool call, read as text to its end (or to where it stops being JSON); returns where it stopped. */
  function readSkip(s: string, from: number): number {
    let i = from;
    while (i < s.length) {
      const step = scanner.step(s.charAt(i));
      // A character that is not JSON here is not part of it: it is read again, as text.
      if (typeof step !== 'object') i++;
      if (step !== 'more') {
        phase = 'text';
        break;
      }
    }
    runs.text(s.slice(from, i), pos);
    pos += i - from;
    return i;
  }

  function readChar(c: string): boolean {
    switch (phase) {
      case 'opener':
        if (readOpener(c)) return true;
        release(false);
        return false;
      case 'gap':
        if (isSpace(c)) {
          held += c;
          return true;
        }
        if (c === '{' || c === '[') {
          held += c;
          startJson(c);
          return true;
        }
        release(false);
        return false;
      case 'json':
        if (readJson(c)) return true;
        if (!accepted && phase === 'json') release(false);
        return false;
      case 'after':
        return readAfter(c);
      default:
        begin(c);
        return true;
    }
  }

  function push(s: string): void {
    let i = 0;
    while (i < s.length) {
      if (phase === 'code') {
        // The text run is open (the fence opened it): offsets of its content are not needed.
        const { hit, next } = fenceEnd.scan(s, i, (content) => runs.text(content, pos));
        pos += next - i;
        i = next;
        if (hit === -1) break;
        runs.text(`\n${FENCE}`, pos);
        phase = 'text';
        continue;
      }
      if (phase === 'skip') {
        i = readSkip(s, i);
        continue;
      }
      if (phase === 'text') {
        const next = nextTrigger(s, i);
        const end = next === -1 ? s.length : next;
        runs.text(s.slice(i, end), pos);
        pos += end - i;
        i = end;
        if (next === -1) break;
      }
      if (readChar(s.charAt(i))) {
        pos++;
        i++;
      }
    }
    flush();
  }

  function end(): void {
    // An object cut off at the end is a tool call once it is (it has started its name or arguments).
    if (
      phase === 'json' &&
      call &&
      (accepted || (rejected === '' && (call.name !== undefined || call.hasArguments || call.lastKey === 'name')))
    ) {
      const open = call;
      runs.closeText(heldStart);
      report(
        'inline.unclosed',
        `The JSON tool call ${quote(open.raw)} is never closed before the block ends; it is kept as an incomplete tool call.`,
        open.start,
      );
      endCall(open, false, pos, scanner.closers());
    } else if (phase === 'json' && accepted) {
      report('inline.unclosed', 'The JSON array of tool calls is never closed before the block ends.', heldStart);
    } else if (phase === 'after') {
      report(
        'inline.unclosed',
        `${(wrapper as Wrapper).open.trim()} is never closed by ${(wrapper as Wrapper).close} before the block ends.`,
        pos,
      );
    } else if (phase === 'code') {
      runs.text(fenceEnd.held, pos);
    } else if (held !== '') {
      release(false);
    }
    flush();
    runs.closeText(pos);
    phase = 'text';
  }

  function heldCount(): number {
    if (phase === 'after') return after.length;
    if (phase === 'code') return fenceEnd.held.length;
    if (phase === 'opener' || phase === 'gap' || (phase === 'json' && !accepted)) return held.length;
    return call && !call.started ? call.raw.length : 0;
  }

  return { push, end, held: heldCount };
}
