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

/** Characters that are unsafe or awkward in a file name on some platform (controls included, on purpose). */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;

/** A file name for a session's title: unsafe characters replaced, at most 80 characters before the extension. */
export function fileNameFor(title: string, format: FileFormat): string {
  const base = title
    .replace(UNSAFE, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.-]+|[\s.-]+$/g, '')
    .slice(0, 80)
    .trim();
  return `${base || 'session'}.${FILE_FORMATS[format].extension}`;
}
