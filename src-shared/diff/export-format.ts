/**
 * What names a diff exported from the Diff view (export.ts), apart from its reader: the file
 * sniffer recognises an export by it without loading the reader's schemas.
 */
export const DIFF_EXPORT_FORMAT = 'agent-stream-inspector/diff';
export const DIFF_EXPORT_VERSION = 1;
