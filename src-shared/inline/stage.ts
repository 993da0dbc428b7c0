import type { DiagnosticInit, DiagnosticLocation } from '../diagnostics/types';
import { DIALECT_REGISTRY } from '../dialects/registry';
import { inlineTreatments, type InlineTreatment } from '../dialects/traits';
import type { Envelope } from '../envelope/types';
import { assignContent, readContent } from '../reconstruct/block-content';
import type { Block } from '../reconstruct/types';
import { createInlineDocument, plainTextSegment, type InlineDocument, type InlineFinding } from './collect';
import { markerStarts } from './tag-vocabulary';
import { isBlank } from './text-runs';
import type { InlineOptions, Segment } from './types';

/** Where the finding is: the envelope being decoded when it was found (none at the session's end). */
export type InlineLocator = (block: Block) => DiagnosticLocation;

export interface InlineStage {
  /** A block opened or changed (through `envelope`, when one is being decoded): parse what it gained. */
  onBlock(block: Block, envelope?: Envelope): void;
  /** The session ended: close what is still open (reports unclosed actions); returns the blocks that changed. */
  finish(blocks: readonly Block[]): Block[];
  /** Parse every text block again with other options (the user chose another mode). */
  reconfigure(options: InlineOptions, blocks: readonly Block[]): void;
  options(): InlineOptions;
  /** Characters the block's parser holds back while it streams (0 for a finished block). */
  held(block: Block): number;
}

interface BlockParse {
  /**
   * The block's parser with its segments, from the first character that can start a marker
   * on; null before, and once the block ended. Until then the block is plain text, of which
   * the parser makes one text segment (none while it is only white space): the stage keeps
   * that segment on the block's own string instead of pushing each delta through a parser.
   */
  doc: InlineDocument | null;
  /** Characters of the block's content already taken. */
  fed: number;
  ended: boolean;
}

/**
 * The characters that can start a marker, as a table by UTF-16 unit, so a delta is scanned
 * once (one lookup per character) instead of once per trigger character.
 */
function triggerTable(chars: string): Uint8Array {
  let top = 0;
  for (let i = 0; i < chars.length; i++) top = Math.max(top, chars.charCodeAt(i));
  const table = new Uint8Array(top + 1);
  for (let i = 0; i < chars.length; i++) table[chars.charCodeAt(i)] = 1;
  return table;
}

/** Whether `text` holds any of the characters marked in `table`. */
function holdsAny(text: string, table: Uint8Array): boolean {
  const top = table.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < top && table[code] === 1) return true;
  }
  return false;
}

/**
 * A block a dialect declares a segment (the segment-events dialect's) is one segment already:
 * its segment has the same fields as those the parser finds in text (the output contract of
 * docs/inline.md). The metadata arrives on the envelope that opens the block (SEGMENT_START).
 */
function describeSegmentBlock(block: Block, envelope: Envelope | undefined): void {
  let segment = block.segments?.[0];
  if (!segment) {
    const metadata = envelope?.extras['metadata'];
    segment = {
      id: block.toolId ?? '',
      type: block.name ?? '',
      metadata: typeof metadata === 'object' && metadata !== null ? { ...(metadata as Record<string, unknown>) } : {},
      params: {},
      content: '',
      complete: false,
      start: 0,
      end: 0,
    } satisfies Segment;
    block.segments = [segment];
  }
  segment.content = block.content;
  segment.end = block.content.length;
  segment.complete = block.status === 'complete';
}

/**
 * The inline stage after reconstruction: one incremental parser per text block, fed with what
 * each change appended (never the whole content again), so a long block costs linear time.
 * A block whose content shrank (the reconstructor split a replayed attempt off it) is parsed
 * again from its start; that happens once per replay. Which kinds are text to parse, and which
 * are segments already, the dialects say (`treatments`, from the registry the session decodes with).
 */
export function createInlineStage(
  initial: InlineOptions,
  report: (d: DiagnosticInit) => void,
  locate: InlineLocator,
  treatments: ReadonlyMap<string, InlineTreatment> = inlineTreatments(DIALECT_REGISTRY),
): InlineStage {
  let options = initial;
  let starts = triggerTable(markerStarts(options));
  let finished = false;
  const parses = new Map<number, BlockParse>();
  /** The block fed last and its parse (undefined once it ended). */
  let recentBlock: Block | undefined;
  let recentParse: BlockParse | undefined;
  /** The kind treated last and its treatment: a run of deltas is one kind. */
  let recentKind: string | undefined;
  let recentTreatment: InlineTreatment | undefined;

  function startParse(block: Block): BlockParse {
    const parse: BlockParse = { doc: null, fed: 0, ended: false };
    parses.set(block.id, parse);
    block.segments = [];
    return parse;
  }

  function newDocument(block: Block, parse: BlockParse): InlineDocument {
    const doc = createInlineDocument(options, (finding) => report(toDiagnostic(block, finding)));
    parse.doc = doc;
    block.segments = doc.segments;
    return doc;
  }

  function toDiagnostic(block: Block, finding: InlineFinding): DiagnosticInit {
    return {
      rule: finding.rule,
      message: `${finding.message} (text block #${block.id}, character ${finding.offset})`,
      at: locate(block),
    };
  }

  /** The block ended: the parser goes, the segments stay (a session may hold many thousands of blocks). */
  function end(block: Block, parse: BlockParse): void {
    parse.ended = true;
    const text = parse.doc ? undefined : block.segments?.[0];
    if (text) {
      // What a parser's end does to the open text segment of plain text.
      text.complete = true;
      text.end = block.content.length;
    }
    if (parse.doc) {
      parse.doc.parser.end();
      // The list grew as the block streamed: an exact copy drops its spare room.
      block.segments = parse.doc.segments.slice();
      parse.doc = null;
    }
    parses.delete(block.id);
    if (recentBlock === block) recentBlock = recentParse = undefined;
    const only = block.segments?.[0];
    // A plain text block: its one segment holds the block's own string instead of a second
    // chain of the same deltas.
    if (block.segments?.length === 1 && only?.type === 'text' && only.content.length === block.content.length)
      only.content = block.content;
  }

  function feed(block: Block, envelope: Envelope | undefined): void {
    // Consecutive deltas go to the same block: its parse is looked up once for all of them.
    let parse = block === recentBlock ? recentParse : parses.get(block.id);
    // An ended block keeps its segments; it only changes again when a replay is split off it.
    if (!parse && block.segments && block.status !== 'open') return;
    const content = readContent(block);
    if (parse && content.length < parse.fed) parse = undefined;
    parse ??= startParse(block);
    recentBlock = block;
    recentParse = parse;
    if (parse.ended) return;
    const grown = content.length - parse.fed;
    if (grown > 0) {
      // The envelope's delta is what the block gained. Slicing the content instead would
      // flatten the block's appended rope on every delta: quadratic in a long block.
      const gained =
        envelope?.type === block.kind && envelope.delta.length === grown ? envelope.delta : content.slice(parse.fed);
      take(block, content, parse, gained);
      parse.fed = content.length;
    }
    if (block.status !== 'open' || finished) end(block, parse);
  }

  /** `content`: the block's content, of which `gained` is the end. */
  function take(block: Block, content: string, parse: BlockParse, gained: string): void {
    if (parse.doc) {
      parse.doc.parser.push(gained);
    } else if (holdsAny(gained, starts)) {
      // A marker may start here: the block's parser reads it from its start (once).
      newDocument(block, parse).parser.push(content);
    } else {
      const text = block.segments?.[0];
      if (text) assignContent(text, content);
      // A list of one, not an empty list pushed to (which keeps room for 17 segments: 128 bytes a text block).
      else if (!isBlank(gained)) block.segments = [plainTextSegment(content)];
    }
  }

  return {
    onBlock(block, envelope) {
      const kind = block.kind;
      if (kind !== recentKind) {
        recentKind = kind;
        recentTreatment = treatments.get(kind);
      }
      const treatment = recentTreatment;
      if (treatment === 'parse') feed(block, envelope);
      else if (treatment === 'segment') describeSegmentBlock(block, envelope);
    },
    finish(blocks) {
      finished = true;
      const changed: Block[] = [];
      for (const block of blocks) {
        const parse = parses.get(block.id);
        if (!parse || parse.ended) continue;
        end(block, parse);
        changed.push(block);
      }
      return changed;
    },
    reconfigure(next, blocks) {
      options = next;
      starts = triggerTable(markerStarts(options));
      parses.clear();
      recentBlock = recentParse = undefined;
      for (const block of blocks) {
        if (treatments.get(block.kind) !== 'parse') continue;
        delete block.segments;
        feed(block, undefined);
      }
    },
    options: () => options,
    held(block) {
      const parse = parses.get(block.id);
      return parse?.doc ? parse.doc.parser.held() : 0;
    },
  };
}
