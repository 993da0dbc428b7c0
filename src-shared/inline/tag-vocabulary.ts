import { CONTENT_MARKERS, PATCH_MARKERS, type RawMarkers } from './arg-stream';
import { JSON_CALL_TRIGGERS } from './json-calls';
import type { Family } from './segments';
import type { ReadTag } from './tags';
import type { InlineOptions } from './types';

/*
 * What the in-text parser recognises in one configuration (docs/inline.md): the tag names it
 * opens segments for, the `<tool name="…">` forms that stream a file, and the characters that
 * can start a marker in text. The JSON mode has a parser of its own; it shares only the last.
 */

const SEGMENT_TAGS = ['thinking', 'think', 'attempt_completion', 'tool_result', 'write_file', 'run_bash', 'tool'];

/** The `<tool name="…">` forms that stream one argument as the segment's content. */
export const FILE_TOOLS: Readonly<
  Record<string, { type: string; content: readonly string[]; needsPath: boolean; markers: readonly RawMarkers[] }>
> = {
  write_file: { type: 'write_file', content: ['content'], needsPath: true, markers: [CONTENT_MARKERS] },
  patch_file: {
    type: 'patch_file',
    content: ['patch', 'diff', 'content'],
    needsPath: true,
    markers: [PATCH_MARKERS, CONTENT_MARKERS],
  },
  run_bash: { type: 'run_bash', content: ['command'], needsPath: false, markers: [CONTENT_MARKERS] },
};

/** The tag names the parser recognises at the top of a text in this configuration (none without XML). */
export function inlineTagNames(options: InlineOptions): string[] {
  return options.mode === 'auto' || options.mode === 'xml'
    ? [...SEGMENT_TAGS, ...options.tools.map((t) => t.name)]
    : [];
}

/** What a configuration recognises, computed once per options object (a session parses thousands of blocks). */
export interface Vocabulary {
  tools: Map<string, InlineOptions['tools'][number]>;
  /** Every prefix of a top-level tag name: a name being read is checked in one lookup. */
  topPrefixes: Set<string>;
  topExact: Set<string>;
  textTriggers: string;
}

const vocabularies = new WeakMap<InlineOptions, Vocabulary>();

export function vocabularyOf(options: InlineOptions): Vocabulary {
  let vocabulary = vocabularies.get(options);
  if (!vocabulary) {
    const topNames = inlineTagNames(options);
    const xml = options.mode === 'auto' || options.mode === 'xml';
    const sentinels = options.mode === 'auto' || options.mode === 'sentinel';
    vocabulary = {
      tools: new Map(options.tools.map((t) => [t.name, t])),
      topPrefixes: new Set(topNames.flatMap((n) => Array.from({ length: n.length }, (_, i) => n.slice(0, i + 1)))),
      topExact: new Set(topNames),
      textTriggers: options.mode === 'json' ? JSON_CALL_TRIGGERS : (xml ? '<' : '') + (sentinels ? '[' : ''),
    };
    vocabularies.set(options, vocabulary);
  }
  return vocabulary;
}

/**
 * The characters that can start a marker in text, in this configuration (`<` for XML tags,
 * `[` for sentinels): text without any of them is text, whatever comes before or after it.
 */
export function markerStarts(options: InlineOptions): string {
  return vocabularyOf(options).textTriggers;
}

/**
 * What a recognised top-level tag opens (docs/inline.md): a segment whose content is read to
 * its close tag (`content`), one whose children are parameters (`body`), a `<tool name="…">`
 * form that streams one of its arguments (`file`), or nothing (`text`): a close tag has
 * nothing to close at the top, and a `<tool>` without a name calls nothing, so both are text,
 * like any tag the parser does not know.
 */
export type TopTagOpening =
  | { read: 'content' | 'body'; family: Family; type: string; metadata: Record<string, unknown> }
  | { read: 'file'; file: (typeof FILE_TOOLS)[string] }
  | { read: 'text' };

export function topTagOpening(t: ReadTag): TopTagOpening {
  const name = t.name;
  if (t.closing || (name === 'tool' && !t.attributes['name'])) return { read: 'text' };
  const attribute = (key: string): Record<string, unknown> => (key in t.attributes ? { [key]: t.attributes[key] } : {});
  if (name === 'thinking') return { read: 'content', family: 'reasoning', type: 'reasoning', metadata: {} };
  if (name === 'think') return { read: 'content', family: 'think', type: 'reasoning', metadata: {} };
  if (name === 'write_file')
    return { read: 'content', family: 'write_file', type: 'write_file', metadata: attribute('path') };
  if (name === 'run_bash') return { read: 'content', family: 'run_bash', type: 'run_bash', metadata: {} };
  if (name === 'tool_result')
    return { read: 'content', family: 'tool_result', type: 'tool_result', metadata: attribute('tool_name') };
  if (name === 'attempt_completion') return { read: 'body', family: 'completion', type: 'completion', metadata: {} };
  if (name === 'tool') {
    const toolName = t.attributes['name'] ?? '';
    const file = FILE_TOOLS[toolName.toLowerCase()];
    if (file) return { read: 'file', file };
    return {
      read: 'body',
      family: 'xml_tool',
      type: 'tool_call',
      metadata: toolName !== '' ? { tool_name: toolName } : {},
    };
  }
  return { read: 'body', family: 'action', type: 'tool_call', metadata: { tool_name: name } };
}
