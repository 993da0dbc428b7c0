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
 * text and sequence number are read here. Anything else is declined and parsed as usual, so
 * what is read is exactly what JSON.parse would give. The dialect keeps what the prefix
 * decoded to (`learn`'s `meaning`) and checks that it still holds.
 */
export class RecentTextDelta<Meaning> {
  // Declared, not class fields (see ProviderEventContext).
  declare private prefix: string;
  /** What the learnt prefix decoded to; undefined while none is learnt. */
  declare meaning: Meaning | undefined;
  /** The meaning whose events have a form that is never read here: not tried again for each of its deltas. */
  declare private unlearnable: Meaning | undefined;
  /** Set by a successful `read`. */
  declare text: string;
  declare sequence: number | undefined;

  constructor() {
    this.prefix = '';
    this.meaning = undefined;
    this.unlearnable = undefined;
  }

  /**
   * `data`, a text delta just decoded through JSON.parse to `meaning`: its prefix up to the
   * delta's text is learnt when nothing in it nests, no `sequence_number` precedes the text
   * and only members read here follow it (so that they add nothing to its meaning).
   */
  learn(data: string, meaning: Meaning): void {
    if ((this.meaning === meaning && startsAt(data, this.prefix, 0)) || this.unlearnable === meaning) return;
    this.forget();
    const at = data.indexOf(DELTA_MEMBER);
    const prefix = at === -1 ? '' : data.slice(0, at + DELTA_MEMBER.length);
    if (prefix === '' || prefix.includes('"sequence_number":') || !FLAT_PREFIX.test(prefix)) {
      this.unlearnable = meaning;
      return;
    }
    const end = stringEnd(data, prefix.length);
    if (end !== -1 && this.readTail(data, end + 1)) {
      // Its own copy: a slice would keep the whole chunk's text alive while the part streams.
      this.prefix = detachString(prefix);
      this.meaning = meaning;
    } else this.unlearnable = meaning;
  }

  forget(): void {
    this.prefix = '';
    this.meaning = undefined;
  }

  /** Whether `data` is a delta with the learnt prefix that is read here; its text and sequence number are then in the fields. */
  read(data: string): boolean {
    const prefix = this.prefix;
    if (prefix === '' || !startsAt(data, prefix, 0)) return false;
    const end = stringEnd(data, prefix.length);
    if (end === -1 || !this.readTail(data, end + 1)) return false;
    const text = stringValue(data, prefix.length, end);
    if (text === undefined) return false;
    this.text = text;
    return true;
  }

  /** The members after the text, up to the closing brace: only those read here; sets `sequence`. */
  private readTail(data: string, from: number): boolean {
    let sequence: number | undefined;
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
