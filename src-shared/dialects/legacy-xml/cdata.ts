import { CDATA_CLOSE, CDATA_OPEN } from './markup';

/**
 * The body of a CDATA item, read by stripping the fixed `<![CDATA[` prefix and `]]>` suffix
 * instead of parsing: upstream does not protect `]]>` in server_tool_result, citation and
 * error bodies (docs/protocols/upstream-protocol.md §5 #24b), so a parser would end the section early.
 */
export type CdataProblem =
  /** The content holds a `]]>` an XML parser would take as the end of the section. */
  | { kind: 'early-end'; index: number }
  /** The section never ends: the item was cut short (a raw newline ended the SSE event). */
  | { kind: 'unterminated' }
  /** The body is not a CDATA section at all; kept verbatim. */
  | { kind: 'not-cdata' };

export interface CdataBody {
  content: string;
  problem: CdataProblem | null;
}

const CDATA_SPLIT = ']]]]><![CDATA[>';

/**
 * `protectedSplits`: the producer splits `]]>` as `]]]]><![CDATA[>` (tool_result), so those
 * splits are not early ends. The content is returned as written; joining the splits is the
 * caller's (it goes with the producer's other unescaping).
 */
export function unwrapCdata(body: string, protectedSplits: boolean): CdataBody {
  if (body === '') return { content: '', problem: null };
  if (!body.startsWith(CDATA_OPEN)) return { content: body, problem: { kind: 'not-cdata' } };
  if (body.length < CDATA_OPEN.length + CDATA_CLOSE.length || !body.endsWith(CDATA_CLOSE)) {
    return { content: body.slice(CDATA_OPEN.length), problem: { kind: 'unterminated' } };
  }
  const content = body.slice(CDATA_OPEN.length, body.length - CDATA_CLOSE.length);
  const early = findEarlyEnd(content, protectedSplits);
  return { content, problem: early === -1 ? null : { kind: 'early-end', index: early } };
}

function findEarlyEnd(content: string, protectedSplits: boolean): number {
  let i = content.indexOf(CDATA_CLOSE);
  while (i !== -1) {
    // Inside a split `]]]]><![CDATA[>` the `]]>` starts two characters in.
    const splitStart = i - 2;
    if (!(protectedSplits && splitStart >= 0 && content.startsWith(CDATA_SPLIT, splitStart))) return i;
    i = content.indexOf(CDATA_CLOSE, splitStart + CDATA_SPLIT.length);
  }
  return -1;
}

export function describeCdataProblem(problem: CdataProblem, where: string): string {
  switch (problem.kind) {
    case 'early-end':
      return `${where}: its CDATA content holds an unprotected "]]>" at character ${problem.index}, where an XML parser would end the section early. Upstream does not protect "]]>" here; the content was read whole by stripping the fixed prefix and suffix.`;
    case 'unterminated':
      return `${where}: the CDATA section is never terminated by "]]>", so the item was cut short (a raw newline in the payload ends the SSE event and the rest is ignored, see the sse.* findings). The content up to the cut is kept.`;
    case 'not-cdata':
      return `${where}: the body is not a CDATA section; it is kept verbatim, without decoding character references.`;
  }
}
