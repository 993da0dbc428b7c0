import type { ContentChannel, UnifiedEvent } from '../../envelope/unified';
import type { StartedBlock } from '../block-tracker';
import { integerField, type ProviderEventContext, type WireEvent } from '../provider/event-context';

/** A content part (text, refusal, reasoning text) or a reasoning summary part. */
export interface OpenPart extends StartedBlock {
  /** Its key in the part tracker: `output:index`, or `output:sindex` for a summary part. */
  key: string;
  type: string;
  envelopeType: string;
  channel: ContentChannel;
  /** Its text has had its `.done` event: further deltas are late. */
  done: boolean;
  /** Output text so far, for checking annotation offsets. */
  text: string[];
  annotations: { at: number; start?: number; end?: number }[];
  /** The unified form of the part's last delta: the next one with the same ids and kind shares it (read-only). */
  deltaEvent?: UnifiedEvent;
  /** What its last delta decoded to, for reading the next ones without JSON.parse (RecentTextDelta). */
  decoded?: DecodedDelta;
}

/** What a text delta decoded to: everything but its text and sequence number. */
export interface DecodedDelta {
  part: OpenPart;
  type: string;
  unified: UnifiedEvent;
  responseId: string;
}

/** A part's key in the part tracker (see OpenPart.key); undefined when the event lacks either index. */
export function partKey(event: WireEvent, summary: boolean): string | undefined {
  const output = integerField(event, 'output_index');
  const index = integerField(event, summary ? 'summary_index' : 'content_index');
  return output === undefined || index === undefined ? undefined : `${output}:${summary ? 's' : ''}${index}`;
}

/** Annotation offsets must fall inside the text (indexes count characters, i.e. code points). */
export function checkAnnotations(ctx: ProviderEventContext, open: OpenPart, finalText: string): void {
  if (open.annotations.length === 0) return;
  const text = finalText !== '' ? finalText : open.text.join('');
  const length = Array.from(text).length;
  for (const a of open.annotations) {
    const bad = [a.start, a.end].some((i) => i !== undefined && (i < 0 || i > length)) || (a.start !== undefined && a.end !== undefined && a.start > a.end);
    if (bad) ctx.report('provider.annotation-out-of-range', `The annotation of event ${a.at} spans ${a.start ?? '?'}..${a.end ?? a.start ?? '?'}, outside the ${length} characters of the text it annotates.`);
  }
}
