import { integerEnd, integerValue, literalAt, startsAt, stringEnd, stringValue } from './compact-json';
import { utf8ByteLength } from '../text/utf8';

/**
 * Reading a stream's hottest events without JSON.parse. The upstream formatter and the
 * provider APIs write each of their frequent events in one fixed shape (the same keys in the
 * same order, no whitespace); JSON.parse of such an event builds a whole object to hand over
 * two or three values. A dialect declares those shapes as data, a template of the event's
 * compact JSON text with slots for what varies:
 *
 * - `{int}` a JSON integer of at most 15 digits (no sign, fraction or exponent);
 * - `{bool}` `true` or `false`;
 * - `"{id}"` a string that repeats from event to event (a type, an agent, a message id): the
 *   reader hands out the string it read last for the same text, so nothing is allocated and
 *   the stages after the dialect hash one string per id;
 * - `"{str}"` any string (the delta): unescaped on its own, JSON.parse of that literal alone
 *   when it holds an escape;
 * - `"{skip}"` a string the dialect does not read (Ollama's `created_at`): delimited and
 *   checked to be a JSON string, never copied.
 *
 * `read` matches the event's text against each shape in turn, literal by literal, with native
 * string comparisons. Anything that differs — another key order, whitespace, an extra or a
 * missing key, a number in another form, a string the scanner cannot delimit — declines the
 * shape, and the dialect parses the event as before: the fallback decides correctness, so what
 * is read here is exactly what JSON.parse would give (property test: shapes.test.ts, and the
 * whole-decoder equivalence test in src-shared/pipeline/fast-paths.test.ts).
 */

const enum Slot {
  Int,
  Bool,
  Id,
  Str,
  Skip,
}

const SLOT_TOKENS: Readonly<Record<string, Slot>> = {
  '{int}': Slot.Int,
  '{bool}': Slot.Bool,
  '"{id}"': Slot.Id,
  '"{str}"': Slot.Str,
  '"{skip}"': Slot.Skip,
};
const SLOT_PATTERN = /\{int\}|\{bool\}|"\{id\}"|"\{str\}"|"\{skip\}"/g;
/** Digits of an integer read here: beyond 15 a double may not hold it exactly. */
const MAX_DIGITS = 15;
/** Distinct strings remembered per `{id}` slot: a session interleaves a main agent and a few sub-agents. */
const RECENT_IDS = 4;
/**
 * Longer events are left to JSON.parse: its one native pass beats the scanner's separate
 * passes (delimit, check for escapes, copy) on a long string, and most long deltas are tool
 * payloads full of escapes, which JSON.parse would unescape anyway.
 */
const MAX_EVENT_CHARS = 512;
/** Heads remembered (see Head): a few agents' or blocks' deltas interleave. */
const RECENT_HEADS = 4;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** A template split at its slots: `literals[i]` precedes slot `i`, the last literal ends the event. */
interface CompiledShape {
  readonly literals: readonly string[];
  readonly slots: readonly Slot[];
  /**
   * Whether the text before its last slot may repeat from event to event, so that a head is
   * worth learning: not when a `{str}` or `{skip}` comes before (Ollama's `created_at`, a new
   * time on every line), which would make every event learn a head no later event starts with.
   */
  readonly learnsHeads: boolean;
}

/**
 * The text of an event up to its last slot, a string, and the values of the slots before it.
 * Consecutive deltas of one block repeat everything before their text (type, agent, index,
 * ids); an event that starts with a head read before holds the same values there, so one
 * native comparison replaces reading them again.
 */
interface Head {
  readonly text: string;
  /** UTF-8 bytes of `text`, measured when `lastStringBytes` first asks (-1 until then): AG-UI and the UI stream never do. */
  bytes: number;
  /** The last character of each slot's value: where heads of one shape differ, told apart before the whole text is compared. */
  readonly probes: readonly number[];
  readonly shape: number;
  readonly values: readonly (string | number | boolean)[];
}

function compile(template: string): CompiledShape {
  const literals: string[] = [];
  const slots: Slot[] = [];
  let from = 0;
  for (const match of template.matchAll(SLOT_PATTERN)) {
    const token = match[0];
    const quoted = token.startsWith('"');
    // A string slot's quotes belong to the literals around it, so that the scanner reads only the text between them.
    literals.push(template.slice(from, (match.index ?? 0) + (quoted ? 1 : 0)));
    slots.push(SLOT_TOKENS[token] as Slot);
    from = (match.index ?? 0) + token.length - (quoted ? 1 : 0);
  }
  literals.push(template.slice(from));
  if (literals[0] === '' || literals[literals.length - 1] === '')
    throw new Error(`a shape starts and ends with literal text: ${template}`);
  const learnsHeads = slots.slice(0, -1).every((slot) => slot !== Slot.Str && slot !== Slot.Skip);
  return { literals, slots, learnsHeads };
}

/** Whether `text[start, end)` is a JSON string's text without an escape or a raw control character. */
function isPlainText(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === BACKSLASH) return false;
  }
  return true;
}

/** Whether `data` has the head's characters at its probes (a value's last character: `data` is at least that long). */
function probesMatch(data: string, head: Head): boolean {
  const { probes, text } = head;
  for (let i = 0; i < probes.length; i++) {
    const at = probes[i] as number;
    if (data.charCodeAt(at) !== text.charCodeAt(at)) return false;
  }
  return true;
}

/** Whether `text` is its own JSON string text (no quote, backslash or control character to escape). */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || c === 0x5c || c < 0x20) return false;
  }
  return true;
}

/**
 * One reader per decoder: `read` overwrites `shape` and `values`, so nothing is allocated per
 * event but the strings a shape's `{str}` slots hold.
 */
export class ShapeReader {
  private readonly shapes: readonly CompiledShape[];
  /** Per shape and slot, the strings last read by an `{id}` slot (empty for other slots). */
  private readonly recent: readonly (readonly string[][])[];
  private readonly enabled: boolean;
  /** Which of the templates the last successful `read` matched. */
  shape = -1;
  /** The slots' values of the last successful `read`, in template order. */
  readonly values: (string | number | boolean)[] = [];

  /** Most recent first; only for shapes whose last slot is a `{str}`. */
  private readonly heads: Head[] = [];
  /** The head of the last successful `read` (undefined when its shape does not end with a string), and whether that string had no escape. */
  private head: Head | undefined;
  private lastPlain = false;
  /** Where the last slot's text started in the last full read, and where each slot ended. */
  private lastStart = 0;
  private readonly slotEnds: number[] = [];

  /** `enabled` false declines every event (the equivalence tests decode through JSON.parse alone). */
  constructor(templates: readonly string[], enabled = true) {
    this.shapes = templates.map(compile);
    this.recent = this.shapes.map((shape) => shape.slots.map(() => []));
    this.enabled = enabled;
  }

  string(slot: number): string {
    return this.values[slot] as string;
  }

  integer(slot: number): number {
    return this.values[slot] as number;
  }

  flag(slot: number): boolean {
    return this.values[slot] as boolean;
  }

  /** Whether `data` is one of the shapes, exactly; when it is, `shape` and `values` say what it holds. */
  read(data: string): boolean {
    if (!this.enabled || data.length > MAX_EVENT_CHARS) return false;
    const heads = this.heads;
    for (let h = 0; h < heads.length; h++) {
      const head = heads[h] as Head;
      if (probesMatch(data, head) && startsAt(data, head.text, 0)) {
        // Most recently used first: a block's closing event (final, a stop reason) learns a head that is not read again.
        if (h > 0) {
          heads[h] = heads[0] as Head;
          heads[0] = head;
        }
        return this.readAfterHead(data, head);
      }
    }
    const shapes = this.shapes;
    for (let s = 0; s < shapes.length; s++) {
      const shape = shapes[s] as CompiledShape;
      if (this.readShape(data, shape, s)) {
        this.shape = s;
        const last = shape.slots.length - 1;
        if (shape.slots[last] === Slot.Str && shape.learnsHeads) {
          this.head = this.learn(data, s, last);
          this.lastPlain =
            (this.values[last] as string).length ===
            data.length - this.lastStart - (shape.literals[last + 1] as string).length;
        } else this.head = undefined;
        return true;
      }
    }
    return false;
  }

  /** The rest of an event that starts with `head`: its last string and the closing literal. */
  private readAfterHead(data: string, head: Head): boolean {
    const literals = (this.shapes[head.shape] as CompiledShape).literals;
    const close = literals[literals.length - 1] as string;
    const start = head.text.length;
    const end = data.length - close.length;
    if (end < start || !literalAt(data, close, end)) return false;
    const value = stringValue(data, start, end);
    if (value === undefined) return false;
    // An escape always takes more characters than the one it stands for.
    this.lastPlain = value.length === end - start;
    this.head = head;
    const known = head.values;
    for (let i = 0; i < known.length; i++) this.values[i] = known[i] as string | number | boolean;
    this.values[known.length] = value;
    this.shape = head.shape;
    return true;
  }

  private learn(data: string, shape: number, last: number): Head {
    if (this.heads.length === RECENT_HEADS) this.heads.pop();
    const probes = this.slotEnds.slice(0, last).map((end) => end - 1);
    // Its own copy: a slice would keep the network chunk's whole text alive. Copied by a
    // concatenation, not detachString's one-byte round trip through UTF-8: a head is learnt
    // for every new block (a new message id) and at most four are kept, so the copy's width
    // costs nothing worth the round trip's time.
    const text = ` ${data.slice(0, this.lastStart)}`.slice(1);
    const head: Head = { text, bytes: -1, probes, shape, values: this.values.slice(0, last) };
    this.heads.unshift(head);
    return head;
  }

  /**
   * UTF-8 bytes of the last read's final string, given those of the whole event: the event's
   * bytes minus the rest of its text, when the string had no escape (its text is then its
   * value); -1 otherwise, or when the shape does not end with a string.
   */
  lastStringBytes(dataBytes: number): number {
    const head = this.head;
    if (head === undefined || !this.lastPlain) return -1;
    const literals = (this.shapes[head.shape] as CompiledShape).literals;
    // The closing literal is ASCII: JSON punctuation and keys.
    if (head.bytes === -1) head.bytes = utf8ByteLength(head.text);
    return dataBytes - head.bytes - (literals[literals.length - 1] as string).length;
  }

  private readShape(data: string, shape: CompiledShape, s: number): boolean {
    const { literals, slots } = shape;
    const first = literals[0] as string;
    if (!literalAt(data, first, 0)) return false;
    let at = first.length;
    const last = slots.length - 1;
    for (let i = 0; i <= last; i++) {
      const next = literals[i + 1] as string;
      let end: number;
      switch (slots[i]) {
        case Slot.Int:
          end = integerEnd(data, at, MAX_DIGITS);
          if (end === -1) return false;
          this.values[i] = integerValue(data, at, end);
          break;
        case Slot.Bool:
          if (literalAt(data, 'true', at)) {
            end = at + 4;
            this.values[i] = true;
          } else if (literalAt(data, 'false', at)) {
            end = at + 5;
            this.values[i] = false;
          } else return false;
          break;
        case Slot.Id:
          end = this.readId(data, at, (this.recent[s] as string[][])[i] as string[], i);
          if (end === -1) return false;
          break;
        case Slot.Skip:
          end = stringEnd(data, at);
          // Checked as JSON.parse would check it; its value is read only when it has an escape.
          if (end === -1 || (!isPlainText(data, at, end) && stringValue(data, at, end) === undefined)) return false;
          this.values[i] = '';
          break;
        default: {
          // The last slot ends where the closing literal starts: no search for its quote.
          if (i === last) {
            this.lastStart = at;
            end = data.length - next.length;
          } else end = stringEnd(data, at);
          // The literal after it first: an event with another member there is declined before its string is copied.
          if (end < at || !literalAt(data, next, end)) return false;
          const value = stringValue(data, at, end);
          if (value === undefined) return false;
          this.values[i] = value;
          at = end + next.length;
          continue;
        }
      }
      if (!literalAt(data, next, end)) return false;
      this.slotEnds[i] = end;
      at = end + next.length;
    }
    return at === data.length;
  }

  /** An `{id}` string at `at`: one remembered string when the text is that string and its closing quote, else read and remembered. */
  private readId(data: string, at: number, recent: string[], slot: number): number {
    for (let k = 0; k < recent.length; k++) {
      const known = recent[k] as string;
      const end = at + known.length;
      // A remembered string is plain: the same text followed by a quote is the same string.
      if (data.charCodeAt(end) === QUOTE && literalAt(data, known, at)) {
        this.values[slot] = known;
        return end;
      }
    }
    const end = stringEnd(data, at);
    if (end === -1) return -1;
    const value = stringValue(data, at, end);
    if (value === undefined) return -1;
    if (isPlain(value)) {
      if (recent.length === RECENT_IDS) recent.pop();
      recent.unshift(value);
    }
    this.values[slot] = value;
    return end;
  }
}
