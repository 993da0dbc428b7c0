import { decodeHTML } from 'entities';
import { parseJsonObject } from '../../json/values';
import type { SniffedFrame } from '../sniff';

/**
 * The format an XML `<meta_init data="…">` item announces: its `data` attribute is
 * HTML-escaped JSON whose `format` is "xml" or "raw" (raw streams announce themselves with
 * the same XML item). Undefined for any other item or an unreadable attribute.
 */
export function announcedXmlFormat(frame: SniffedFrame): string | undefined {
  if (!frame.data.startsWith('<meta_init', frame.start)) return undefined;
  const match = /\sdata\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(frame.data.slice(frame.start));
  const attribute = match?.[1] ?? match?.[2];
  if (attribute === undefined) return undefined;
  const format = parseJsonObject(decodeHTML(attribute))?.['format'];
  return typeof format === 'string' ? format : undefined;
}
