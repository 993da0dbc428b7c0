import { detachString } from '../../text/detach';
import { ESCAPED_IN_JSON, startsAt, stringEnd, stringValue } from '../../json/compact-json';

/** OpenAI's per-chunk padding, whose value changes from chunk to chunk (and means nothing). */
const OBFUSCATION = ',"obfuscation":"';

/**
 * The content chunks of one choice differ only in their text: the id, object, created, model,
 * fingerprint, the choice's index and every member after the text (`logprobs: null`,
 * `finish_reason: null`, `usage: null`) repeat from chunk to chunk, and OpenAI's
 * `obfuscation` padding only changes its value. After a chunk has been decoded through
 * JSON.parse to one text delta, the reader learns the text up to that delta's string (the
 * prefix) and after it (the suffix). A following chunk made of the very same prefix, a JSON
 * string, and the same suffix (its obfuscation value aside, when it has no escapes) is the
 * same JSON but for that string: it is read here, its text taken from the string. Anything
 * else is declined and parsed, so what is read is exactly what JSON.parse would give. JSON.parse
 * of such a chunk builds five objects for one string, and was most of the dialect's time.
 */
export class RecentContentDelta<Meaning> {
  // Declared, not class fields (see ProviderEventContext).
  declare private prefix: string;
  /** The suffix, up to the obfuscation's value when it has one. */
  declare private head: string;
  /** The suffix from the obfuscation value's closing quote on; undefined when there is none. */
  declare private tail: string | undefined;
  /** What the learnt chunk decoded to; undefined while none is learnt. */
  declare meaning: Meaning | undefined;
  /** Set by a successful `read`. */
  declare text: string;

  constructor() {
    this.forget();
  }

  forget(): void {
    this.prefix = '';
    this.head = '';
    this.tail = undefined;
    this.meaning = undefined;
  }

  /**
   * `data`, a chunk just decoded to one text delta of `text` (and nothing else), read from one
   * of `keys`: its text is learnt as the string of the only `"key":"` in it whose value is
   * that text. Not learnt when there is no such string, or the obfuscation value has escapes.
   */
  learn(data: string, keys: readonly string[], text: string, meaning: Meaning): void {
    this.forget();
    for (const key of keys) {
      const marker = `"${key}":"`;
      const at = data.indexOf(marker);
      if (at === -1 || data.includes(marker, at + marker.length)) continue;
      const start = at + marker.length;
      const end = stringEnd(data, start);
      if (end === -1 || stringValue(data, start, end) !== text) continue;
      const suffix = data.slice(end + 1);
      const padding = suffix.indexOf(OBFUSCATION);
      if (padding === -1) {
        this.head = detachString(suffix);
      } else {
        const value = padding + OBFUSCATION.length;
        const close = suffix.indexOf('"', value);
        if (close === -1 || ESCAPED_IN_JSON.test(suffix.slice(value, close))) return;
        this.head = detachString(suffix.slice(0, value));
        this.tail = detachString(suffix.slice(close));
      }
      // Its own copy: a slice would keep the whole chunk's text alive while the choice streams.
      this.prefix = detachString(data.slice(0, start));
      this.meaning = meaning;
      return;
    }
  }

  /** Whether `data` is the learnt chunk with other text (not empty); the text is then in `text`. */
  read(data: string): boolean {
    const prefix = this.prefix;
    if (prefix === '' || !startsAt(data, prefix, 0)) return false;
    const end = stringEnd(data, prefix.length);
    if (end === -1) return false;
    const from = end + 1;
    const { head, tail } = this;
    if (tail === undefined) {
      if (data.length - from !== head.length || !startsAt(data, head, from)) return false;
    } else {
      if (!startsAt(data, head, from)) return false;
      const value = from + head.length;
      const close = data.indexOf('"', value);
      if (close === -1 || data.length - close !== tail.length || !startsAt(data, tail, close)) return false;
      if (ESCAPED_IN_JSON.test(data.slice(value, close))) return false;
    }
    const text = stringValue(data, prefix.length, end);
    if (text === undefined || text === '') return false;
    this.text = text;
    return true;
  }
}
