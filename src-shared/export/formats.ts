/**
 * What a session can be saved or exported as, with the file name and type each gets: the
 * menu, main's save dialog and the browser host's downloads all read this one table.
 */

export const FILE_FORMATS = {
  recording: { label: 'Recording (replayable)', extension: 'recording', mimeType: 'application/x-ndjson' },
  'raw-sse': { label: 'Raw SSE capture', extension: 'sse', mimeType: 'text/event-stream' },
  'envelopes-ndjson': { label: 'Envelopes (NDJSON)', extension: 'ndjson', mimeType: 'application/x-ndjson' },
  har: { label: 'HAR (HTTP archive)', extension: 'har', mimeType: 'application/json' },
  'blocks-json': { label: 'Blocks (JSON)', extension: 'blocks.json', mimeType: 'application/json' },
  'transcript-md': { label: 'Transcript (Markdown)', extension: 'md', mimeType: 'text/markdown' },
} as const;

export type FileFormat = keyof typeof FILE_FORMATS;

/**
 * What a file name keeps of a title: letters and digits of any script, `.`, `_` and `-`.
 * Everything else (spaces, `·`, parentheses, quotes, slashes, controls) becomes one `-`, so a
 * name needs no quoting in a shell and is valid on every platform.
 */
const UNSAFE_RUN = /[^\p{L}\p{N}._-]+/gu;

/** A file name for a session's title: safe characters only, at most 80 before the extension, never hidden or empty. */
export function fileNameFor(title: string, format: FileFormat): string {
  const base = title
    .replace(UNSAFE_RUN, '-')
    .replace(/-{2,}/g, '-')
    .slice(0, 80)
    .replace(/^[.-]+|[.-]+$/g, '');
  return `${base || 'session'}.${FILE_FORMATS[format].extension}`;
}
