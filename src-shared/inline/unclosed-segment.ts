import type { ParamValue } from './param-value';
import { SENTINEL_END } from './sentinel';
import type { Open, SegmentWriter } from './segments';
import type { InlineRuleId } from './types';

/** Where in its segment the text ended: inside a file tool's streamed argument, a parameter value, or elsewhere. */
export type EndedInside = 'stream' | 'value' | 'segment';

/**
 * The text (the block) ended with a segment still open: it is reported as unclosed
 * (`inline.unclosed`, saying which parameter it ended in) and closed where the text ends, its
 * content as received. Inside a parameter value, what arrived is the value, and the parameters
 * after it are read too (unclosed-params.ts).
 */
export function closeUnclosedSegment(
  seg: Open,
  inside: EndedInside,
  param: ParamValue,
  segments: SegmentWriter,
  report: (rule: InlineRuleId, message: string, offset: number) => void,
  end: number,
): void {
  const closer = seg.family === 'sentinel' ? SENTINEL_END : `</${seg.tag}>`;
  let where = inside === 'stream' ? ` (inside its ${param.name} parameter)` : '';
  if (inside === 'value') {
    where = `, nor is its ${param.describe()} parameter (each parameter is read up to the next parameter tag or the end of the text)`;
    takeUnclosedParams(seg, param, segments);
  }
  report(
    'inline.unclosed',
    `${seg.family === 'sentinel' ? `Sentinel segment "${seg.type}"` : `<${seg.tag}>`} is never closed${where}: no ${closer} before the block ends. Its content is shown as received.`,
    seg.start,
  );
  segments.closeSegment(false, end);
}

/** The text ended inside a parameter value: what arrived is the value, and the parameters after it. */
function takeUnclosedParams(seg: Open, param: ParamValue, segments: SegmentWriter): void {
  const argForm = seg.family === 'xml_tool' || seg.family === 'file_tool';
  for (const { name, raw, value } of param.endOfText({ toolTag: seg.tag, argForm })) {
    if (seg.family === 'file_tool' && seg.contentArg.includes(name)) segments.emit(raw);
    else segments.setParam(seg, name, value);
  }
}
