import { detachString } from '../../text/detach';
import { ESCAPED_IN_JSON, integerEnd, integerValue, startsAt, stringEnd, stringValue } from '../../json/compact-json';

/**
 * A prefix that can be learnt: an object's first members, each a plain string (no escapes),
 * an integer, `[]`, true, false or null, up to the opening quote of a `delta` string. Nothing
 * in it nests, so the same prefix always means the same members with the same values.
 */
/* eslint-disable no-control-regex -- control characters are exactly what JSON escapes */
const FLAT_PREFIX =
  /^\{(?:"[^"\\\u0000-\u001f]*":(?:"[^"\\\u0000-\u001f]*"|-?(?:0|[1-9]\d{0,14})|\[\]|true|false|null),)*"delta":"$/;
/* eslint-enable no-control-regex */

const DELTA_MEMBER = '"delta":"';
const SEQUENCE = ',"sequence_number":';
/** How xAI's Responses API starts every event: its sequence number first. */
const LEADING_SEQUENCE = '{"sequence_number":';
const OPEN_BRACE = 0x7b;
const COMMA = 0x2c;
const LOGPROBS = ',"logprobs":[]';
const OBFUSCATION = ',"obfuscation":"';
const CLOSE_BRACE = 0x7d;
/** Digits of a sequence number read here; longer ones go through JSON.parse. */
const MAX_DIGITS = 15;

/**
 * The text deltas of one part differ only in their text and sequence number: everything
 * before the `delta` member (type, item id, output and content index) repeats from event to
 * event. After a delta has been decoded through JSON.parse, the reader learns that prefix;
 * a following event that starts with the very same prefix and whose remaining members are
 * only `sequence_number`, `logprobs: []` and `obfuscation`, is
 * then read without JSON.parse: its prefix means what it meant for the learnt event, its
 * text and sequence number are read here. A sequence number may also come first, before the
 * prefix (as xAI writes every event), when the learnt event had it there. Anything else is declined and parsed as usual, so
 * what is read is exactly what JSON.parse would give. The dialect keeps what the prefix
 * decoded to (`learn`'s `meaning`) and checks that it still holds.
 */
export class RecentTextDelta<Meaning> {
  // Declared, not class fields (see ProviderEventContext).
  /** The learnt members after the opening brace (and after a leading sequence number), up to the text's opening quote. */
  declare private prefix: string;
  /** The learnt event began with its sequence number. */
  declare private leadingSequence: boolean;
  /** What the learnt prefix decoded to; undefined while none is learnt. */
  declare meaning: Meaning | undefined;
  /** The meaning whose events have a form that is never read here: not tried again for each of its deltas. */
  declare private unlearnable: Meaning | undefined;
  /** Set by a successful `read`. */
  declare text: string;
  declare sequence: number | undefined;

  constructor() {
    this.prefix = '';
    this.leadingSequence = false;
    this.meaning = undefined;
    this.unlearnable = undefined;
  }

  /**
   * `data`, a text delta just decoded through JSON.parse to `meaning`: its prefix up to the
   * delta's text is learnt when nothing in it nests, no `sequence_number` precedes the text
   * but as the event's first member, and only members read here follow it (so that they add
   * nothing to its meaning).
   */
  learn(data: string, meaning: Meaning): void {
    if ((this.meaning === meaning && this.textStart(data) !== -1) || this.unlearnable === meaning) return;
    this.forget();
    const leading = startsAt(data, LEADING_SEQUENCE, 0);
    const members = leading ? leadingSequenceEnd(data) + 1 : 1;
    const at = members === 0 ? -1 : data.indexOf(DELTA_MEMBER, members);
    const prefix = at === -1 ? '' : data.slice(members, at + DELTA_MEMBER.length);
    if (prefix === '' || prefix.includes('"sequence_number":') || !FLAT_PREFIX.test(`{${prefix}`)) {
      this.unlearnable = meaning;
      return;
    }
    const end = stringEnd(data, members + prefix.length);
    if (end !== -1 && this.readTail(data, end + 1, leading ? 0 : undefined)) {
      // Its own copy: a slice would keep the whole chunk's text alive while the part streams.
      this.prefix = detachString(prefix);
      this.leadingSequence = leading;
      this.meaning = meaning;
    } else this.unlearnable = meaning;
  }

  /** Where the text of `data` starts when it begins as the learnt event did (setting `sequence` to a leading one), else -1. */
  private textStart(data: string): number {
    let members = 1;
    let sequence: number | undefined;
    if (this.leadingSequence) {
      if (!startsAt(data, LEADING_SEQUENCE, 0)) return -1;
      const end = leadingSequenceEnd(data);
      if (end === -1) return -1;
      sequence = integerValue(data, LEADING_SEQUENCE.length, end);
      members = end + 1;
    } else if (data.charCodeAt(0) !== OPEN_BRACE) return -1;
    if (this.prefix === '' || !startsAt(data, this.prefix, members)) return -1;
    this.sequence = sequence;
    return members + this.prefix.length;
  }

  forget(): void {
    this.prefix = '';
    this.leadingSequence = false;
    this.meaning = undefined;
  }

  /** Whether `data` is a delta with the learnt prefix that is read here; its text and sequence number are then in the fields. */
  read(data: string): boolean {
    const start = this.textStart(data);
    if (start === -1) return false;
    const end = stringEnd(data, start);
    if (end === -1 || !this.readTail(data, end + 1, this.sequence)) return false;
    const text = stringValue(data, start, end);
    if (text === undefined) return false;
    this.text = text;
    return true;
  }

  /**
   * The members after the text, up to the closing brace: only those read here, and a sequence
   * number only when none came first (`sequence`: a leading one); sets `sequence`.
   */
  private readTail(data: string, from: number, leading: number | undefined): boolean {
    let sequence = leading;
    let at = from;
    const last = data.length - 1;
    while (at < last) {
      if (sequence === undefined && startsAt(data, SEQUENCE, at)) {
        const first = at + SEQUENCE.length;
        at = integerEnd(data, first, MAX_DIGITS);
        if (at === -1) return false;
        sequence = integerValue(data, first, at);
      } else if (startsAt(data, LOGPROBS, at)) {
        at += LOGPROBS.length;
      } else if (startsAt(data, OBFUSCATION, at)) {
        const close = data.indexOf('"', at + OBFUSCATION.length);
        if (close === -1 || ESCAPED_IN_JSON.test(data.slice(at + OBFUSCATION.length, close))) return false;
        at = close + 1;
      } else return false;
    }
    if (at !== last || data.charCodeAt(last) !== CLOSE_BRACE) return false;
    this.sequence = sequence;
    return true;
  }
}

/** The end of the digits of a leading `{"sequence_number":N,`, when a comma follows them, else -1. */
function leadingSequenceEnd(data: string): number {
  const end = integerEnd(data, LEADING_SEQUENCE.length, MAX_DIGITS);
  return end !== -1 && data.charCodeAt(end) === COMMA ? end : -1;
}
