import { unwrapCdata, type CdataProblem } from './cdata';
import { setField } from './fields';
import { readStartTag, isMarkupError, tagNameAt, type RawAttribute, CDATA_OPEN } from './markup';

/**
 * The body of a `<citations>` item: `<citation type=… …><![CDATA[cited]]></citation>…`
 * (docs/protocols/upstream-protocol.md §5 #22). The cited text is not `]]>`-protected, so each citation
 * ends at the `]]></citation>` that is followed by the next `<citation` or by the end of
 * the body, not at the first `]]>`.
 */
export interface ParsedCitation {
  attributes: RawAttribute[];
  citedText: string;
  problem: CdataProblem | null;
}

export interface CitationList {
  citations: ParsedCitation[];
  /** Set when the body holds something other than citations; reading stopped there. */
  error: { message: string; index: number } | null;
}

const CITATION_END = ']]></citation>';
const CITATION_CLOSE = '</citation>';

export function readCitations(body: string): CitationList {
  const citations: ParsedCitation[] = [];
  let pos = 0;
  while (pos < body.length) {
    if (tagNameAt(body, pos) !== 'citation') {
      return {
        citations,
        error: { message: `expected <citation> but found ${JSON.stringify(body.slice(pos, pos + 40))}`, index: pos },
      };
    }
    const start = readStartTag(body, pos);
    if (isMarkupError(start)) return { citations, error: { message: start.error, index: start.index } };
    if (start.selfClosing) {
      citations.push({ attributes: start.attributes, citedText: '', problem: null });
      pos = start.end;
      continue;
    }
    if (!body.startsWith(CDATA_OPEN, start.end)) {
      const close = body.indexOf(CITATION_CLOSE, start.end);
      const end = close === -1 ? body.length : close;
      citations.push({
        attributes: start.attributes,
        citedText: body.slice(start.end, end),
        problem: { kind: 'not-cdata' },
      });
      pos = close === -1 ? body.length : close + CITATION_CLOSE.length;
      continue;
    }
    const end = findCitationEnd(body, start.end + CDATA_OPEN.length);
    if (end === -1) {
      citations.push({
        attributes: start.attributes,
        citedText: body.slice(start.end + CDATA_OPEN.length),
        problem: { kind: 'unterminated' },
      });
      break;
    }
    const section = unwrapCdata(body.slice(start.end, end + ']]>'.length), false);
    citations.push({ attributes: start.attributes, citedText: section.content, problem: section.problem });
    pos = end + CITATION_END.length;
  }
  return { citations, error: null };
}

/**
 * Index of the `]]></citation>` that ends the citation whose text starts at `from`, or -1:
 * the first one followed by another citation or the end of the body; failing that (junk
 * follows), the last one, so the junk is reported rather than swallowed into the text.
 */
function findCitationEnd(body: string, from: number): number {
  let i = body.indexOf(CITATION_END, from);
  while (i !== -1) {
    const after = i + CITATION_END.length;
    if (after === body.length || tagNameAt(body, after) === 'citation') return i;
    i = body.indexOf(CITATION_END, i + 1);
  }
  const last = body.lastIndexOf(CITATION_END);
  return last >= from ? last : -1;
}

/** Citation fields the JSON formatter keeps as JSON numbers (docs/protocols/upstream-protocol.md §4 #18). */
const NUMERIC_FIELDS = new Set([
  'document_index',
  'start_char_index',
  'end_char_index',
  'start_page_number',
  'end_page_number',
]);
const INTEGER = /^-?\d+$/;

/**
 * The extras the JSON dialect gives a citation envelope, from decoded XML attributes:
 * `type` becomes `citation_type`; numeric fields become numbers; fields the XML formatter
 * wrote for a null value — `""` (`document_title`, `url`, `title`) or Python's `"None"`
 * (`str(None)` for a missing `document_index`) — are dropped, as the JSON formatter drops
 * nulls. A genuinely empty title is therefore dropped too: the XML cannot tell.
 */
export function citationExtras(attributes: readonly { name: string; value: string }[]): Record<string, unknown> {
  const extras: Record<string, unknown> = {};
  const type = attributes.find((a) => a.name === 'type');
  extras['citation_type'] = type?.value ?? 'unknown';
  for (const { name, value } of attributes) {
    if (name === 'type' || value === '' || Object.hasOwn(extras, name)) continue;
    if (NUMERIC_FIELDS.has(name)) {
      if (value === 'None') continue;
      setField(extras, name, INTEGER.test(value) ? Number(value) : value);
    } else {
      setField(extras, name, value);
    }
  }
  return extras;
}
