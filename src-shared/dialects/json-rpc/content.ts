import { NO_EXTRAS } from '../../envelope/types';
import { unified, type StreamIds, type UnifiedEvent } from '../../envelope/unified';
import { KIND } from '../../envelope/vocabulary';
import type { ProviderEventContext } from '../provider/event-context';

const TEXT_BLOCK = { kind: 'text', channel: 'output_text' } as const;

/**
 * The content envelopes of a JSON-RPC stream: text (an A2A artifact streamed chunk by chunk,
 * an agent message, an MCP tool result's text items) as streamed text blocks, and every other
 * part (images, files, data, resources, structured content) as a whole block of its own kind.
 * Reconstruction keeps one open text block per agent, so this writer holds at most one: text
 * of another source (a status message between two artifact chunks) closes it first, and the
 * next chunk of the artifact it closed continues in a new block. Nothing is mixed or lost.
 */
export class ContentWriter {
  /** The source of the open text block (`artifact:<id>`, `message:<n>`…), undefined when none is open. */
  private open: string | undefined;
  private ids: StreamIds = {};
  /** The unified form of the open block's deltas, made once per block (its deltas share it). */
  private deltaEvent: UnifiedEvent | undefined;

  /** Whether the text block of `source` is the open one. */
  isOpen(source: string): boolean {
    return this.open === source;
  }

  /**
   * Appends `text` to the text block of `source`, opening one (named `name`) unless it is the
   * open block; `fresh` starts a new block even then (an artifact sent again replaces itself).
   */
  text(ctx: ProviderEventContext, source: string, name: string, text: string, ids: StreamIds, fresh = false): void {
    if (this.open !== source || fresh) {
      this.close(ctx);
      this.start(ctx, source, name, ids);
    }
    if (text !== '') ctx.envelope(KIND.text, false, text, NO_EXTRAS, undefined, this.deltaEvent);
  }

  /** A text block that is whole in one event (an MCP text item, an agent message). */
  whole(ctx: ProviderEventContext, source: string, name: string, text: string, ids: StreamIds): void {
    this.text(ctx, source, name, text, ids, true);
    this.close(ctx);
  }

  /** A block of another kind, whole in one event: `content` as its text. */
  part(ctx: ProviderEventContext, kind: string, name: string, content: string): void {
    this.close(ctx);
    ctx.emit({ type: kind, final: true, delta: content, extras: name === '' ? {} : { name } });
  }

  /** Closes the open text block (only if it is `source`'s, when given). */
  close(ctx: ProviderEventContext, source?: string): void {
    if (this.open === undefined || (source !== undefined && source !== this.open)) return;
    this.open = undefined;
    ctx.emit(
      { type: KIND.text, final: true, delta: '', extras: {} },
      unified('stream.content_block_stop', this.ids, TEXT_BLOCK),
    );
  }

  private start(ctx: ProviderEventContext, source: string, name: string, ids: StreamIds): void {
    this.open = source;
    this.ids = ids;
    this.deltaEvent = unified('stream.content_block_delta', ids, { kind: 'text_delta', channel: 'output_text' });
    ctx.emit(
      { type: KIND.text, final: false, delta: '', extras: name === '' ? {} : { name }, control: 'block-open' },
      unified('stream.content_block_start', ids, TEXT_BLOCK),
    );
  }
}
