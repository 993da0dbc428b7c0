import type { Frame } from '../../sse/types';
import { detachString } from '../../text/detach';
import { previewText } from '../../text/preview';
import { unescapeFormatterItem, unescapeLongAscii } from './escaping';
import type { Item, ItemContext } from './item';

/**
 * Undoing upstream's `stream_xml_to_aqueue` escaping on the formatter's items, for one
 * stream: items look escaped until one holds a backslash the escaping cannot produce, which
 * shows the stream predates it (`xml.unescaped-stream`); from then on items are verbatim.
 */
export class FormatterEscaping {
  /** Whether items still look escaped. */
  escaped = true;

  /**
   * A formatter item's text as a string of its own (the decoder's `push` says why), unescaped
   * unless the stream predates the escaping. A long ASCII item is unescaped as bytes, which
   * decode to a string of its own: it is not copied first.
   */
  ownText(ctx: Item, frame: Frame): string {
    if (this.escaped) {
      const bytewise = unescapeLongAscii(frame.data);
      if (typeof bytewise === 'string') {
        ctx.start(frame, bytewise);
        return bytewise;
      }
    }
    ctx.start(frame, detachString(frame.data));
    return this.text(ctx, ctx.data);
  }

  /** `text` unescaped, unless the stream predates the escaping. */
  text(ctx: ItemContext, text: string): string {
    if (!this.escaped) return text;
    // The text unescaped, or where a backslash shows it was never escaped.
    const unescapedOrUnpaired = unescapeFormatterItem(text);
    if (typeof unescapedOrUnpaired === 'string') return unescapedOrUnpaired;
    const unpaired = unescapedOrUnpaired;
    this.escaped = false;
    ctx.report(
      'xml.unescaped-stream',
      `Event ${ctx.frame.seq} holds a backslash upstream's escaping cannot produce (character ${unpaired}: ${previewText(text.slice(Math.max(0, unpaired - 20), unpaired + 20))}), so this stream predates the escaping of "\\" and newlines (before 2026-01-01). This item and all later ones are taken verbatim; earlier items holding "\\\\" or "\\n" were unescaped and may differ from what was sent.`,
    );
    return text;
  }
}
