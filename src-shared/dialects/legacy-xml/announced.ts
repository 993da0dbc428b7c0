import { decodeHTML } from 'entities';
import { parseJsonObject } from '../../json/values';
import type { SniffedFrame } from '../sniff';

/**
 * Whether the item is an XML `<meta_init data="…">` announcing the raw format: its `data`
 * attribute is HTML-escaped JSON whose `format` is "xml" or "raw" (raw streams announce
 * themselves with the same XML item). An xml leg asks this of every meta_init it decodes (a
 * raw leg may continue it), one per agent, and their data can be long (the run's query and
 * tools): an item in which "raw" appears nowhere, and that holds no escape that could spell
 * it (an HTML numeric reference, a JSON `\u`), is answered without decoding and parsing it.
 */
export function announcesRaw(frame: SniffedFrame): boolean {
  const { data, start } = frame;
  if (!data.startsWith('<meta_init', start)) return false;
  if (!data.includes('raw', start) && !data.includes('&#', start) && !data.includes('\\u', start)) return false;
  return announcedFormat(data.slice(start)) === 'raw';
}

/** The `format` the item's data attribute announces; undefined for an unreadable attribute. */
function announcedFormat(item: string): string | undefined {
  const match = /\sdata\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(item);
  const attribute = match?.[1] ?? match?.[2];
  if (attribute === undefined) return undefined;
  const format = parseJsonObject(decodeHTML(attribute))?.['format'];
  return typeof format === 'string' ? format : undefined;
}
