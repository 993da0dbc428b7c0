/**
 * Protocols the model writes inside its own text (docs/inline.md): XML tool tags
 * (docs/protocols/inline-tool-tags.md), segment tags and sentinels (docs/protocols/segments.md).
 * The inline stage turns a text block into segments; the segment-events wire dialect produces
 * the same shape.
 */

/**
 * The inline modes, one entry each: `auto` recognises XML tags and sentinels, `xml` and
 * `sentinel` one family, `json` JSON tool calls (docs/protocols/segments.md, "Parser
 * strategies"), `off` none. `label` is what the connect form offers, `title` the
 * Blocks view's tooltip; the contract, `--inline` and both pickers read this table.
 */
export const INLINE_MODE_TABLE = {
  auto: { label: 'Auto', title: 'XML tool tags, segment tags and sentinels' },
  xml: { label: 'XML tool tags', title: 'XML tool tags and segment tags only' },
  sentinel: { label: 'Sentinels', title: '[[SEG_START …]] sentinels only' },
  json: {
    label: 'JSON tool calls',
    title: 'JSON tool calls ({"name": …, "arguments": …}), bare, fenced or in <tool_call>',
  },
  off: { label: 'Off (plain text)', title: 'No parsing: text blocks stay text' },
} as const satisfies Record<string, { label: string; title: string }>;

export type InlineMode = keyof typeof INLINE_MODE_TABLE;

export const INLINE_MODES = Object.keys(INLINE_MODE_TABLE) as readonly InlineMode[];

/** A tool tag the model may write (`<search>…</search>`), with the parameters it must carry. */
export interface ToolTag {
  name: string;
  required: readonly string[];
}

export interface InlineOptions {
  mode: InlineMode;
  tools: readonly ToolTag[];
}

/** The tool tags of docs/protocols/inline-tool-tags.md, with the parameters it marks required. */
export const DEFAULT_TOOL_TAGS: readonly ToolTag[] = [
  { name: 'search', required: ['query'] },
  { name: 'extract', required: ['file_path'] },
  { name: 'query', required: [] },
];

export const DEFAULT_INLINE_OPTIONS: InlineOptions = { mode: 'auto', tools: DEFAULT_TOOL_TAGS };

/** Segment types named by the protocols; a sentinel header or a segment event may name others. */
export type KnownSegmentType =
  'text' | 'reasoning' | 'tool_call' | 'write_file' | 'patch_file' | 'run_bash' | 'completion' | 'tool_result';

export const KNOWN_SEGMENT_TYPES: readonly KnownSegmentType[] = [
  'text',
  'reasoning',
  'tool_call',
  'write_file',
  'patch_file',
  'run_bash',
  'completion',
  'tool_result',
];

/**
 * One segment of a text block (or of a segment-event stream). `content` is what the segment
 * streamed, markup removed where the protocol says so; `complete` is false for a segment whose
 * closing marker never came (or has not come yet while the block streams).
 */
export interface Segment {
  id: string;
  type: string;
  metadata: Record<string, unknown>;
  params: Record<string, string>;
  content: string;
  complete: boolean;
  /** Offsets in the block's raw text (UTF-16 code units) from the opening marker to past the closing one. */
  start: number;
  end: number;
}

/** An in-text parser of one block's text (parser.ts; json-calls.ts in the JSON mode). */
export interface InlineParser {
  push(text: string): void;
  /** The block ended: release what is held, close what is open, check the turn. */
  end(): void;
  /** Characters read but not yet released (a marker being decided); what a live view holds back. */
  held(): number;
}

/** What the parser reports, in stream order; a collector turns it into segments. */
export interface SegmentSink {
  start(id: string, type: string, metadata: Record<string, unknown>, offset: number): void;
  content(delta: string): void;
  param(name: string, value: string): void;
  /**
   * The open segment is of another type than it started as: a later marker showed what its
   * text was (the text before a `</think>` no `<think>` opened, docs/inline.md). Its content
   * and offsets stay; only its type changes.
   */
  retype(type: string): void;
  end(complete: boolean, offset: number): void;
  diagnostic(rule: InlineRuleId, message: string, offset: number): void;
}

export type InlineRuleId =
  | 'inline.unclosed'
  | 'inline.mismatched-close'
  | 'inline.no-action'
  | 'inline.multiple-actions'
  | 'inline.missing-param'
  | 'inline.invalid-sentinel'
  | 'inline.text-after-action'
  | 'inline.think-open-implied';

/** Parse `search:query,extract:file_path,query` (a tool, then `:`-separated required parameters joined by `+` or `:`). */
export function parseToolList(list: string): ToolTag[] {
  const tools: ToolTag[] = [];
  for (const item of list.split(',')) {
    const [name, ...required] = item
      .trim()
      .split(/[:+]/)
      .map((s) => s.trim());
    if (!name) continue;
    tools.push({ name, required: required.filter((r) => r !== '') });
  }
  return tools;
}

export function formatToolList(tools: readonly ToolTag[]): string {
  return tools.map((t) => [t.name, ...t.required].join(':')).join(',');
}
