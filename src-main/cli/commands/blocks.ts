import { HAR_ENTRY_ARG, INLINE_ARGS, parse, parseFormat, parseHarEntry, parseInline, singleFile } from '../args';
import { streamFile } from '../stream-file';
import type { CliIo, Command } from '../io';
import { stringifyJson } from '../../../src-shared/json/tree';
import { formatSegment, preview } from '../report';
import { agentLabel } from '../agent-label';
import type { Envelope } from '../../../src-shared/envelope/types';
import type { UnifiedEvent } from '../../../src-shared/envelope/unified';
import type { Block } from '../../../src-shared/reconstruct/types';
import { terminalSafe } from '../../../src-shared/text/terminal';

/**
 * The reconstructed blocks, in the order they opened. The file is streamed (stream-file.ts):
 * a block is printed once it settles and every block opened before it is printed, so what is
 * kept is the printed form of the blocks waiting behind one still open (a provider message's
 * block waits for its end), never the envelopes (docs/reliability.md, "Memory that does not grow with the stream").
 */
export const blocks: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    ...INLINE_ARGS,
    ...HAR_ENTRY_ARG,
  });
  const file = singleFile(positionals);
  const harEntry = parseHarEntry(values['har-entry']);
  const printer = inOrder(io, values.json ? JSON_LIST : TEXT_LIST);
  // A provider dialect's block carries the unified event it opened with (its family, kind,
  // channel or tool, and StreamIDs), so scripts can follow a block back to the unified surface:
  // the first of its envelopes that has one, taken as the envelopes arrive.
  const unified = new Map<number, UnifiedEvent>();
  let current: Envelope | undefined;
  const streamed = await streamFile(
    file,
    parseFormat(values.format, io.dialects),
    io,
    { inline: parseInline(values.inline, values.tools), ...(harEntry ? { harEntry } : {}) },
    {
      onEnvelope: (envelope) => (current = envelope),
      onBlock(block) {
        if (values.json && current?.unified && !unified.has(block.id) && block.envelopes.at(-1) === current.seq)
          unified.set(block.id, current.unified);
      },
      onSettled: (block) => printer.add(withUnified(block, unified)),
    },
  );
  for (const block of streamed.held) printer.add(withUnified(block, unified));
  printer.end();
  return 0;
};

function withUnified(block: Block, unified: Map<number, UnifiedEvent>): Block & { unified?: UnifiedEvent } {
  const event = unified.get(block.id);
  unified.delete(block.id);
  return event ? { ...block, unified: event } : block;
}

/** How the list is printed: each block's text, what goes before the block printed `index`th, and the end. */
interface Layout {
  item(block: Block): string;
  before(index: number): string;
  close(printed: number): string;
}

/** `--json`: the blocks as one JSON array, exactly as printJson writes it, an element at a time. */
const JSON_LIST: Layout = {
  item: (block) =>
    terminalSafe(`  ${(stringifyJson(block, { indent: 2 }) ?? 'null').replace(/\n/g, '\n  ')}`, { json: true }),
  before: (index) => (index === 0 ? '[\n' : ',\n'),
  close: (printed) => (printed === 0 ? '[]\n' : '\n]\n'),
};

/** Text: a block after another; a stream without one says so (an empty output would read as a failure). */
const TEXT_LIST: Layout = { item: blockText, before: () => '', close: (printed) => (printed === 0 ? NO_BLOCKS : '') };

export const NO_BLOCKS = '(no blocks)\n';

/** A block as text: its line, then what it holds besides its content (citations, images, awaited tools, segments). */
export function blockText(b: Block): string {
  const label = [b.name, b.toolId].filter(Boolean).join(' ');
  let out = `#${b.id} ${agentLabel(b.agent)} ${b.kind}${label ? ` [${label}]` : ''} ${b.status}: ${preview(b.content, 200)}\n`;
  if (b.omittedChars)
    out += `    holds its first ${b.content.length} characters; ${b.omittedChars} more are in the stream's bytes (block.content-capped)\n`;
  for (const c of b.citations) out += `    cites ${c.citationType}: ${preview(c.citedText)}\n`;
  for (const i of b.images) out += `    image ${i.mediaType}: ${preview(i.src)}\n`;
  if (b.pendingTools)
    for (const t of b.pendingTools)
      out += `    awaits ${t.name} (${t.toolUseId}): ${stringifyJson(t.input) ?? '(no input)'}\n`;
  // A text block that is one plain text segment says nothing more than its content.
  const segments = b.segments ?? [];
  if (segments.length > 1 || segments.some((s) => s.type !== 'text'))
    for (const s of segments) out += `    ${formatSegment(s)}\n`;
  return out;
}

/**
 * Prints blocks in id order as they come in any order: a block is kept (as the text it prints
 * as) until every block before it is printed. Block ids count up from 0 as blocks are made; at
 * `end` whatever is left is printed in order.
 */
function inOrder(io: CliIo, layout: Layout) {
  let next = 0;
  let printed = 0;
  const waiting = new Map<number, string>();
  const write = (text: string): void => io.stdout(`${layout.before(printed++)}${text}`);
  return {
    add(block: Block): void {
      if (block.id < next || waiting.has(block.id)) return;
      waiting.set(block.id, layout.item(block));
      for (let text = waiting.get(next); text !== undefined; text = waiting.get(next)) {
        waiting.delete(next++);
        write(text);
      }
    },
    end(): void {
      for (const [, text] of [...waiting].sort(([a], [b]) => a - b)) write(text);
      io.stdout(layout.close(printed));
    },
  };
}
