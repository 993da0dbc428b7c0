import type { ContentChannel, UnifiedEvent } from '../../envelope/unified';
import type { StartedBlock } from '../block-tracker';
import { integerField, stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';

/*
 * The bookkeeping of a Responses content part between its .added and .done: its key, its
 * text so far (for annotation offsets) and the unified form its deltas share.
 */

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
    const bad =
      [a.start, a.end].some((i) => i !== undefined && (i < 0 || i > length)) ||
      (a.start !== undefined && a.end !== undefined && a.start > a.end);
    if (bad)
      ctx.report(
        'provider.annotation-out-of-range',
        `The annotation of event ${a.at} spans ${a.start ?? '?'}..${a.end ?? a.start ?? '?'}, outside the ${length} characters of the text it annotates.`,
      );
  }
}

/** Whether `event` (a delta) has the unified form `cached`: what the decoder's ids(event) would give in response `responseId`, compared without building it (a delta's ids seldom change). */
export function isSameDelta(
  cached: UnifiedEvent,
  event: WireEvent,
  kind: string,
  channel: ContentChannel | undefined,
  responseId: string,
): boolean {
  const { ids: c } = cached;
  return (
    cached.kind === kind &&
    cached.channel === channel &&
    c.response_id === (responseId || undefined) &&
    c.item_id === (stringField(event, 'item_id') || undefined) &&
    c.output_index === integerField(event, 'output_index') &&
    c.content_index === (integerField(event, 'content_index') ?? integerField(event, 'summary_index'))
  );
}
