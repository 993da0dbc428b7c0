/**
 * What a session can be saved or exported as, with the file name and type each gets: the
 * menu, main's save dialog and the browser host's downloads all read this one table.
 *
 * `reopens` says what opening the file again gives: `session`, the same session (its legs,
 * how it ended, its findings), decoded again from the stream's bytes the file keeps; `no`, a
 * file for reading that the inspector does not open. `keeps` says, in a sentence the menu
 * shows, what the file carries and what it cannot.
 */
export const FILE_FORMATS = {
  recording: {
    label: 'Recording (replayable)',
    extension: 'recording',
    mimeType: 'application/x-ndjson',
    reopens: 'session',
    keeps:
      'Everything: every leg with its request, response, network chunks and their timing, how it ended, and the tool answers sent.',
  },
  'raw-sse': {
    label: 'Raw SSE capture',
    extension: 'sse',
    mimeType: 'text/event-stream',
    reopens: 'session',
    keeps:
      'The stream bytes of every leg, exactly; several legs are told apart by a comment line naming their sizes. No requests, headers, chunking or timing.',
  },
  'envelopes-ndjson': {
    label: 'Envelopes (NDJSON)',
    extension: 'ndjson',
    mimeType: 'application/x-ndjson',
    reopens: 'session',
    keeps:
      "One decoded envelope per line, with its leg, frame and byte range; each event's first line also carries the event's bytes, which is what reopening it decodes, and each leg's first line its request, response head and how it ended. No network chunking; each event's receive time is kept.",
  },
  har: {
    label: 'HAR (HTTP archive)',
    extension: 'har',
    mimeType: 'application/json',
    reopens: 'session',
    keeps:
      'Every leg as an HTTP entry: request, response and the whole body, and how the leg ended. No per-chunk timing.',
  },
  'blocks-json': {
    label: 'Blocks (JSON)',
    extension: 'blocks.json',
    mimeType: 'application/json',
    reopens: 'no',
    keeps: 'The reconstructed blocks with their content, for scripts; it does not open as a session.',
  },
  'transcript-md': {
    label: 'Transcript (Markdown)',
    extension: 'md',
    mimeType: 'text/markdown',
    reopens: 'no',
    keeps: 'The conversation as Markdown, for reading; it does not open as a session.',
  },
} as const satisfies Record<
  string,
  { label: string; extension: string; mimeType: string; reopens: 'session' | 'no'; keeps: string }
>;

export type FileFormat = keyof typeof FILE_FORMATS;

/** What to tell the user who exported a file that does not reopen as the same session (null for one that does). */
export function exportCaveat(format: FileFormat): string | null {
  const { reopens, keeps } = FILE_FORMATS[format];
  return reopens === 'session' ? null : keeps;
}

/**
 * What a file name keeps of a title: letters and digits of any script, `.`, `_` and `-`.
 * Everything else (spaces, `·`, parentheses, quotes, slashes, controls) becomes one `-`, so a
 * name needs no quoting in a shell and is valid on every platform.
 */
const UNSAFE_RUN = /[^\p{L}\p{N}._-]+/gu;

/**
 * A file name for a session's title: safe characters only, at most 80 before the extension,
 * never hidden or empty. A title that already ends with the extension (a file's session,
 * `grounding.sse`, exported as raw SSE) does not get it twice.
 */
export function fileNameFor(title: string, format: FileFormat): string {
  const extension = `.${FILE_FORMATS[format].extension}`;
  let base = title.replace(UNSAFE_RUN, '-').replace(/-{2,}/g, '-');
  if (base.toLowerCase().endsWith(extension)) base = base.slice(0, -extension.length);
  base = base.slice(0, 80).replace(/^[.-]+|[.-]+$/g, '');
  return `${base || 'session'}${extension}`;
}
