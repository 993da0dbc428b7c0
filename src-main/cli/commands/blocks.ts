import { INLINE_ARGS, parse, parseFormat, parseInline, singleFile } from '../args';
import { decodeFile } from '../decode-file';
import { printJson, type Command } from '../io';
import { stringifyJson } from '../../../src-shared/json/tree';
import { formatSegment, preview } from '../report';
import type { Envelope } from '../../../src-shared/envelope/types';
import type { UnifiedEvent } from '../../../src-shared/envelope/unified';
import type { Block } from '../../../src-shared/reconstruct/types';

/**
 * A provider dialect's block with the unified event it opened with (its family, kind,
 * channel or tool, and StreamIDs), so scripts can follow a block back to the unified surface.
 */
function withUnified(block: Block, envelopes: readonly Envelope[]): Block & { unified?: UnifiedEvent } {
  for (const seq of block.envelopes) {
    const unified = envelopes[seq]?.unified;
    if (unified) return { ...block, unified };
  }
  return block;
}

/** The reconstructed blocks, in the order they opened. */
export const blocks: Command = async (args, io) => {
  const { values, positionals } = parse(args, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    ...INLINE_ARGS,
  });
  const file = singleFile(positionals);
  const result = await decodeFile(file, parseFormat(values.format, io.dialects), io, {
    inline: parseInline(values.inline, values.tools),
  });
  if (values.json) {
    printJson(
      io,
      result.blocks.map((b) => withUnified(b, result.envelopes)),
    );
    return 0;
  }
  for (const b of result.blocks) {
    const label = [b.name, b.toolId].filter(Boolean).join(' ');
    io.stdout(
      `#${b.id} ${b.agent.slice(0, 8) || '-'} ${b.kind}${label ? ` [${label}]` : ''} ${b.status}: ${preview(b.content, 200)}\n`,
    );
    if (b.omittedChars)
      io.stdout(
        `    holds its first ${b.content.length} characters; ${b.omittedChars} more are in the stream's bytes (block.content-capped)\n`,
      );
    for (const c of b.citations) io.stdout(`    cites ${c.citationType}: ${preview(c.citedText)}\n`);
    for (const i of b.images) io.stdout(`    image ${i.mediaType}: ${preview(i.src)}\n`);
    if (b.pendingTools)
      for (const t of b.pendingTools)
        io.stdout(`    awaits ${t.name} (${t.toolUseId}): ${stringifyJson(t.input) ?? '(no input)'}\n`);
    // A text block that is one plain text segment says nothing more than its content.
    const segments = b.segments ?? [];
    if (segments.length > 1 || segments.some((s) => s.type !== 'text')) {
      for (const s of segments) io.stdout(`    ${formatSegment(s)}\n`);
    }
  }
  return 0;
};
