import { detachString } from '../../text/detach';
import { startsAt, stringEnd, stringValue } from '../../json/compact-json';

const TEXT_MEMBER = '"text":"';

/**
 * The chunks of one streamed A2A artifact differ only in their text: the JSON-RPC envelope,
 * the task, the artifact, `append: true` and `lastChunk: false` repeat from event to event.
 * After such a chunk has been decoded through JSON.parse, the reader learns the text before
 * its text (the prefix, up to the opening quote) and after it (the tail, from the closing
 * quote). A following event that is that prefix, one JSON string and that tail is the same
 * event with another text, and is read without JSON.parse; anything else is declined and
 * parsed as usual. The dialect keeps what the learnt chunk decoded to (`meaning`) and checks
 * that it still holds before using a read.
 */
export class RecentArtifactChunk<Meaning> {
  // Declared, not class fields (see ProviderEventContext).
  declare private prefix: string;
  declare private tail: string;
  declare meaning: Meaning | undefined;
  /** Set by a successful `read`. */
  declare text: string;

  constructor() {
    this.prefix = '';
    this.tail = '';
    this.meaning = undefined;
  }

  /**
   * `data`, a chunk just decoded through JSON.parse to `meaning` with `text` as its one text
   * part: learnt when its last `"text":"` member holds exactly that text (so that the prefix
   * and the tail are everything else of the event).
   */
  learn(data: string, text: string, meaning: Meaning): void {
    if (this.meaning === meaning && startsAt(data, this.prefix, 0) && data.endsWith(this.tail)) return;
    this.forget();
    const member = data.lastIndexOf(TEXT_MEMBER);
    if (member === -1) return;
    const start = member + TEXT_MEMBER.length;
    const end = stringEnd(data, start);
    if (end === -1 || stringValue(data, start, end) !== text) return;
    // Their own copies: slices would keep the whole chunk's text alive while the artifact streams.
    this.prefix = detachString(data.slice(0, start));
    this.tail = detachString(data.slice(end));
    this.meaning = meaning;
  }

  forget(): void {
    this.prefix = '';
    this.tail = '';
    this.meaning = undefined;
  }

  /** Whether `data` is the learnt chunk with another text, which is then in `text`. */
  read(data: string): boolean {
    const { prefix, tail } = this;
    if (prefix === '' || data.length < prefix.length + tail.length || !startsAt(data, prefix, 0)) return false;
    const end = data.length - tail.length;
    if (!data.endsWith(tail) || stringEnd(data, prefix.length) !== end) return false;
    const text = stringValue(data, prefix.length, end);
    if (text === undefined) return false;
    this.text = text;
    return true;
  }
}
