import { unwrapCdata, type CdataProblem } from './cdata';
import { CDATA_CLOSE, CDATA_OPEN, isMarkupError, readStartTag, tagNameAt, type RawAttribute } from './markup';

/**
 * The body of a `<content-block-tool_result>` item: a CDATA section, or the multimodal form
 * `<text><![CDATA[…]]></text><image src=… media_type=… />…` (upstream `_emit_tool_result`).
 * Its text is `]]>`-protected by upstream, so the first `]]></text>` ends it.
 */
export interface ToolResultBody {
  multimodal: boolean;
  /** CDATA content as written: splits not joined, newlines still escaped. */
  text: string;
  images: RawAttribute[][];
  problem: CdataProblem | null;
  /** Markup that is neither the text part nor an image; reading stopped there. */
  error: { message: string; index: number } | null;
}

const TEXT_OPEN = '<text>';
const TEXT_CLOSE = '</text>';

export function readToolResultBody(body: string): ToolResultBody {
  if (!body.startsWith(TEXT_OPEN)) {
    const section = unwrapCdata(body, true);
    return { multimodal: false, text: section.content, images: [], problem: section.problem, error: null };
  }
  let text: string;
  let problem: CdataProblem | null;
  let pos: number;
  if (body.startsWith(CDATA_OPEN, TEXT_OPEN.length)) {
    const end = body.indexOf(CDATA_CLOSE + TEXT_CLOSE, TEXT_OPEN.length + CDATA_OPEN.length);
    if (end === -1) {
      return {
        multimodal: true,
        text: body.slice(TEXT_OPEN.length + CDATA_OPEN.length),
        images: [],
        problem: { kind: 'unterminated' },
        error: null,
      };
    }
    const section = unwrapCdata(body.slice(TEXT_OPEN.length, end + CDATA_CLOSE.length), true);
    text = section.content;
    problem = section.problem;
    pos = end + CDATA_CLOSE.length + TEXT_CLOSE.length;
  } else {
    const end = body.indexOf(TEXT_CLOSE, TEXT_OPEN.length);
    const stop = end === -1 ? body.length : end;
    text = body.slice(TEXT_OPEN.length, stop);
    problem = { kind: 'not-cdata' };
    pos = end === -1 ? body.length : end + TEXT_CLOSE.length;
  }
  const images: RawAttribute[][] = [];
  while (pos < body.length) {
    if (tagNameAt(body, pos) !== 'image') {
      return {
        multimodal: true,
        text,
        images,
        problem,
        error: { message: `expected <image /> but found ${JSON.stringify(body.slice(pos, pos + 40))}`, index: pos },
      };
    }
    const tag = readStartTag(body, pos);
    if (isMarkupError(tag))
      return { multimodal: true, text, images, problem, error: { message: tag.error, index: tag.index } };
    images.push(tag.attributes);
    pos = tag.end;
    // Tolerate an explicit close tag, which XML allows in place of "/>".
    if (!tag.selfClosing && body.startsWith('</image>', pos)) pos += '</image>'.length;
  }
  return { multimodal: true, text, images, problem, error: null };
}
