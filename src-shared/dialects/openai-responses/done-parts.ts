import { KIND } from '../../envelope/vocabulary';
import { isJsonObject } from '../../json/values';
import { citationExtras } from '../provider/citation-extras';
import { stringField, type ProviderEventContext, type WireEvent } from '../provider/event-context';
import { citedOf } from './part-events';
import type { ResponsesStream } from './stream-state';
import { PART_TYPES } from './vocabulary';

/*
 * The text of a message or reasoning item its done event gives whole (its `content`, a
 * reasoning item's `summary`) when no part event streamed it: a stream that sends only the
 * items' done events (the Codex CLI's test stream), a proxy that drops the part events, an item
 * response.completed finds still open. Each such part becomes the block its part events would
 * have made, so its text is never lost; a part that streamed made its block already.
 */

/** The parts lists of an item and whether a part of that list is a summary part (its key: `output:sindex`). */
const PART_LISTS: Readonly<Record<string, readonly { field: string; summary: boolean }[]>> = {
  message: [{ field: 'content', summary: false }],
  reasoning: [
    { field: 'summary', summary: true },
    { field: 'content', summary: false },
  ],
};

/** Emits the blocks of the parts of `item` (at output index `index`, when it has one) that no part event streamed. */
export function emitDoneParts(
  s: ResponsesStream,
  ctx: ProviderEventContext,
  index: number | undefined,
  item: WireEvent,
): void {
  const lists = PART_LISTS[stringField(item, 'type')];
  if (!lists) return;
  // Text without part indexes streams into a part keyed by its item id (part-events.ts).
  const itemKey = `${stringField(item, 'id') || '(no item)'}:`;
  for (const { field, summary } of lists) {
    const parts = item[field];
    if (!Array.isArray(parts)) continue;
    parts.forEach((part: unknown, at) => {
      if (!isJsonObject(part)) return;
      const key = index === undefined ? undefined : `${index}:${summary ? 's' : ''}${at}`;
      const streamed =
        (key !== undefined && s.parts.state(key) !== 'unknown') ||
        s.parts.state(`${itemKey}${summary ? 's' : ''}`) !== 'unknown';
      if (!streamed) emitPart(ctx, part, key);
    });
  }
}

/** One part given whole: its text, then its annotations as citations (as their events would have made them), closed. */
function emitPart(ctx: ProviderEventContext, part: WireEvent, key: string | undefined): void {
  const partType = stringField(part, 'type');
  const known = PART_TYPES[partType];
  if (!known) return;
  const text = stringField(part, partType === 'refusal' ? 'refusal' : 'text');
  ctx.emit({ type: known.envelopeType, final: false, delta: text, extras: key === undefined ? {} : { part: key } });
  const annotations = part['annotations'];
  if (Array.isArray(annotations))
    for (const note of annotations)
      if (isJsonObject(note))
        ctx.emit({
          type: KIND.citation,
          final: true,
          delta: citedOf(note),
          extras: citationExtras(note['type'], note),
        });
  ctx.emit({ type: known.envelopeType, final: true, delta: '', extras: {} });
}
