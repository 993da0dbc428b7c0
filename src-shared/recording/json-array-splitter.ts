import { createUtf8Decoder } from '../text/utf8';
import { fileDiagnostic, type ImportDiagnosticSink } from './diagnostics';
import {
  BACKSLASH,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  closingQuote,
  endsInOpenEscape,
  isJsonSpace,
} from '../json/json-bytes';

/**
 * A streaming splitter for JSON arrays: bytes in, the source text of each element of one
 * array out, so a file of any size is read with memory bounded by its largest element.
 * `path` names the array: `[]` is a top-level array, `['log', 'entries']` the entries of a
 * HAR file (`{"log": {"entries": [...]}}`); everything outside it is scanned, not kept.
 *
 * It tracks structure only (brackets, strings, escapes, object keys on the path); each
 * element is handed over for JSON.parse, which judges its validity. Elements come out with
 * the whitespace between tokens removed, so a pretty-printed element becomes one line.
 * JSON's structural characters are ASCII and never occur inside a multi-byte UTF-8
 * sequence, which is why the scan can run on bytes and report exact byte offsets.
 */

export interface JsonElement {
  /** The element's JSON text, whitespace between tokens removed. */
  text: string;
  /** 0-based position in the array. */
  index: number;
  /** File offsets of the element's first byte and just after its last. */
  byteStart: number;
  byteEnd: number;
}

export interface JsonArraySplitterCallbacks {
  onElement: (element: JsonElement) => void;
  onDiagnostic: ImportDiagnosticSink;
}

export interface JsonArraySplitterOptions {
  path?: readonly string[];
  /** Elements longer than this are skipped with a finding. Default 256 MiB. */
  maxElementBytes?: number;
  /** What the array holds, for messages ("envelope", "HAR entry"). */
  itemName?: string;
  /** File offset of the first byte pushed (when reading starts after a BOM or header). */
  startOffset?: number;
}

export interface JsonArraySummary {
  /** The array was found and closed. */
  complete: boolean;
  found: boolean;
  elements: number;
}

export interface JsonArraySplitter {
  push(bytes: Uint8Array): void;
  end(): JsonArraySummary;
  /** The array was found and is now closed (the rest of the input need not be read). */
  readonly closed: boolean;
}

const MAX_KEY_BYTES = 1024;

interface Container {
  array: boolean;
  /** Object only: the current key, when the object is on the path. */
  key: string | null;
  awaitingKey: boolean;
  /** The container's own path equals a prefix of the wanted path. */
  onPath: boolean;
  isTarget: boolean;
}

const decoder = createUtf8Decoder();

export function createJsonArraySplitter(
  callbacks: JsonArraySplitterCallbacks,
  options: JsonArraySplitterOptions = {},
): JsonArraySplitter {
  const path = options.path ?? [];
  const maxElementBytes = options.maxElementBytes ?? 256 * 1024 * 1024;
  const itemName = options.itemName ?? 'element';
  const stack: Container[] = [];
  let offset = options.startOffset ?? 0;
  let inString = false;
  let escaped = false;
  /** Bytes of an object key on the path, while it is being read. */
  let key: number[] | null = null;
  let done = false;
  let failed = false;
  let found = false;
  let closed = false;
  let trailingReported = false;

  // The element being captured: a container, a string, or a number/literal.
  let capture: 'none' | 'container' | 'string' | 'primitive' = 'none';
  let elementStart = 0;
  let overflow = false;
  let buffer = new Uint8Array(4096);
  let length = 0;
  let index = 0;

  const fail = (message: string, at: number): void => {
    failed = true;
    callbacks.onDiagnostic(fileDiagnostic('import.truncated', message, at));
  };

  const append = (bytes: Uint8Array, from: number, to: number): void => {
    if (overflow || to <= from) return;
    const needed = length + (to - from);
    if (needed > maxElementBytes) {
      overflow = true;
      return;
    }
    if (needed > buffer.length) {
      let size = buffer.length * 2;
      while (size < needed) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(bytes.subarray(from, to), length);
    length = needed;
  };

  const finishElement = (end: number): void => {
    capture = 'none';
    if (overflow) {
      callbacks.onDiagnostic(
        fileDiagnostic(
          'import.skipped-item',
          `${capitalize(itemName)} ${index} (bytes ${elementStart}–${end}) is longer than ${maxElementBytes} bytes; skipped.`,
          elementStart,
        ),
      );
    } else {
      callbacks.onElement({
        text: decoder.decode(buffer.subarray(0, length)),
        index,
        byteStart: elementStart,
        byteEnd: end,
      });
    }
    index++;
    // One huge element should not pin its buffer for the rest of the file.
    if (buffer.length > 1024 * 1024) buffer = new Uint8Array(4096);
  };

  const open = (array: boolean): void => {
    const depth = stack.length;
    const parent = stack[depth - 1];
    const onPath =
      depth === 0 ||
      (parent !== undefined &&
        parent.onPath &&
        !parent.array &&
        depth <= path.length &&
        parent.key === path[depth - 1]);
    const isTarget = onPath && array && depth === path.length;
    if (isTarget) found = true;
    stack.push({ array, key: null, awaitingKey: !array, onPath, isTarget });
  };

  /** Depth of the stack while inside the wanted array (elements are its direct children). */
  const elementDepth = path.length + 1;

  function scan(bytes: Uint8Array): void {
    /** Start of the run of bytes being copied into the captured element, or -1. An element continued from the previous push is copied from the start. */
    let run = capture === 'none' ? -1 : 0;
    const flushRun = (to: number): void => {
      if (run >= 0) append(bytes, run, to);
      run = -1;
    };
    for (let i = 0; i < bytes.length; i++) {
      if (inString && key === null && !escaped) {
        // Inside a string value: jump to its closing quote with a native search.
        const end = closingQuote(bytes, i);
        if (end < 0) {
          escaped = endsInOpenEscape(bytes, i);
          break;
        }
        i = end;
      }
      const b = bytes[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (key) {
            (stack[stack.length - 1] as Container).key = decodeKey(key);
            key = null;
          } else if (capture === 'string') {
            flushRun(i + 1);
            finishElement(offset + i + 1);
          }
          continue;
        }
        if (key && key.length < MAX_KEY_BYTES) key.push(b);
        continue;
      }
      if (isJsonSpace(b)) {
        if (capture !== 'none') flushRun(i);
        if (capture === 'primitive') finishElement(offset + i);
        continue;
      }
      if (done) {
        if (!trailingReported) {
          trailingReported = true;
          callbacks.onDiagnostic(
            fileDiagnostic(
              'import.truncated',
              `Trailing data after the end of the JSON value at byte ${offset + i}; ignored.`,
              offset + i,
            ),
          );
        }
        return;
      }
      if (capture === 'primitive' && (b === COMMA || b === CLOSE_ARRAY || b === CLOSE_OBJECT)) {
        flushRun(i);
        finishElement(offset + i);
      }
      const top = stack[stack.length - 1];
      if (!top && b !== (path.length === 0 ? OPEN_ARRAY : OPEN_OBJECT)) {
        fail(
          `Expected a JSON ${path.length === 0 ? 'array' : 'object'} at byte ${offset + i}, found ${JSON.stringify(String.fromCharCode(b))}.`,
          offset + i,
        );
        return;
      }
      if (capture === 'none' && top?.isTarget && b !== COMMA && b !== CLOSE_ARRAY) {
        capture = b === OPEN_OBJECT || b === OPEN_ARRAY ? 'container' : b === QUOTE ? 'string' : 'primitive';
        elementStart = offset + i;
        length = 0;
        overflow = false;
      }
      if (capture !== 'none' && run < 0) run = i;
      switch (b) {
        case QUOTE:
          inString = true;
          if (top && !top.array && top.awaitingKey && top.onPath) key = [];
          break;
        case OPEN_OBJECT:
        case OPEN_ARRAY:
          open(b === OPEN_ARRAY);
          break;
        case CLOSE_OBJECT:
        case CLOSE_ARRAY:
          if (!top || top.array !== (b === CLOSE_ARRAY)) {
            fail(
              `Malformed JSON at byte ${offset + i}: '${String.fromCharCode(b)}' does not close what is open. Reading stopped; the ${index} ${itemName}(s) before it were read.`,
              offset + i,
            );
            return;
          }
          stack.pop();
          if (top.isTarget) closed = true;
          if (stack.length === 0) done = true;
          if (capture === 'container' && stack.length === elementDepth) {
            flushRun(i + 1);
            finishElement(offset + i + 1);
          }
          break;
        case COLON:
          if (top && !top.array) top.awaitingKey = false;
          break;
        case COMMA:
          if (top && !top.array) {
            top.awaitingKey = true;
            top.key = null;
          }
          break;
      }
    }
    flushRun(bytes.length);
  }

  return {
    get closed() {
      return closed;
    },
    push(bytes) {
      if (!failed) scan(bytes);
      offset += bytes.length;
    },
    end() {
      // Once the wanted array closed, the rest need not have been read.
      if (!failed && !done && !closed) {
        if (stack.length === 0) {
          fail(`The file holds no JSON value${path.length ? ` with ${path.join('.')}` : ''}.`, offset);
        } else {
          const inside = capture !== 'none';
          const where = inside
            ? `inside ${itemName} ${index} (which starts at byte ${elementStart})`
            : 'before the JSON value is closed';
          fail(
            `The file ends ${where}: it is truncated. The ${index} complete ${itemName}(s) before it were read.`,
            inside ? elementStart : offset,
          );
        }
      }
      return { complete: closed, found, elements: index };
    },
  };
}

function decodeKey(bytes: number[]): string {
  const raw = decoder.decode(Uint8Array.from(bytes));
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
