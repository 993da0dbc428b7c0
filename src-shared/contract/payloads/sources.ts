import type { Infer } from '../schema';
import { FormatChoice, HeaderTable, InlineOptions, Path, SessionId } from './common';
import * as s from '../schema';

/** Connecting and opening: live requests, files and uploads. */

export const RequestBody = s.variant('kind', {
  /** JSON text; checked to parse before sending; Content-Type defaults to application/json. */
  json: s.object({ text: s.string({ max: 16 * 1024 * 1024 }) }),
  /** Sent exactly as written. */
  raw: s.object({ text: s.string({ max: 16 * 1024 * 1024 }) }),
});
export type RequestBody = Infer<typeof RequestBody>;

/** Secret values main filled into a request: wherever it is shown or written, each occurrence reads `{{name}}`. */
export const SecretValues = s.array(
  s.object({ name: s.string({ nonEmpty: true, max: 100 }), value: s.string({ max: 64 * 1024 }) }),
  { max: 200 },
);
export type SecretValues = Infer<typeof SecretValues>;

/**
 * What a request is: the connect form's fields, and what a saved request keeps (with its
 * `{{variables}}` as written).
 */
export const RequestTemplate = s.object({
  url: s.string({ nonEmpty: true, max: 8192 }),
  method: s.string({ nonEmpty: true, max: 16, pattern: /^[A-Za-z]+$/ }),
  headers: HeaderTable,
  body: s.optional(RequestBody),
  /** Dialect override; auto-detected when absent. */
  format: s.optional(FormatChoice),
  /** How text blocks are read for in-text protocols; auto with the default tool tags when absent. */
  inline: s.optional(InlineOptions),
  /**
   * Decode the response as a stream whatever its content type says (a server that labels its
   * stream text/plain or application/json); without it, only a response that announces a
   * stream is decoded and anything else is shown as the answer it is.
   */
  acceptAnyContentType: s.optional(s.boolean()),
});
export type RequestTemplate = Infer<typeof RequestTemplate>;

export const ConnectRequest = s.object({
  ...RequestTemplate.shape,
  /** Record the session to this file as it arrives (never overwrites an existing file). */
  recordTo: s.optional(Path),
  title: s.optional(s.string({ max: 200 })),
  /**
   * Reopen a dropped GET stream (with Last-Event-ID, after the server's clamped `retry`).
   * Refused for other methods: re-sending a POST would start a new agent run.
   */
  reconnect: s.optional(s.object({ maxAttempts: s.number({ integer: true, min: 1, max: 100 }) })),
  /** Set by main after filling in environment variables (see SecretValues). */
  secretValues: s.optional(SecretValues),
  timeouts: s.optional(
    s.object({
      /** TCP + TLS handshake. */
      connectMs: s.optional(s.number({ min: 1, max: 600_000 })),
      /** From the request being sent to the response head. */
      responseMs: s.optional(s.number({ min: 1, max: 3_600_000 })),
      /** Silence on an open stream before giving up; absent or 0 means wait forever. */
      idleMs: s.optional(s.number({ min: 0, max: 86_400_000 })),
    }),
  ),
});
export type ConnectRequest = Infer<typeof ConnectRequest>;

export const OpenFileRequest = s.object({
  path: Path,
  format: s.optional(FormatChoice),
  /** For HAR files: which entry to open (its position in `log.entries`). */
  entry: s.optional(s.index()),
  title: s.optional(s.string({ max: 200 })),
  inline: s.optional(InlineOptions),
});
export type OpenFileRequest = Infer<typeof OpenFileRequest>;

/** A file session decoded again: as a dialect, or `auto` (detected, whatever the file says was chosen). */
export const DecodeAgainAsRequest = s.object({ sessionId: SessionId, format: FormatChoice });
export type DecodeAgainAsRequest = Infer<typeof DecodeAgainAsRequest>;

/**
 * A file picked in the browser host (the browser cannot hand over a path): either its bytes
 * streamed before and while it opens (`uploadId`, from beginUpload and sendUploadChunk) or, for
 * a small file, all of them here as base64.
 */
export const OpenUploadRequest = s.object({
  name: s.string({ nonEmpty: true, max: 512 }),
  uploadId: s.optional(s.string({ nonEmpty: true, max: 64 })),
  base64: s.optional(s.string({ max: 96 * 1024 * 1024 })),
  format: s.optional(FormatChoice),
  entry: s.optional(s.index()),
  inline: s.optional(InlineOptions),
});
export type OpenUploadRequest = Infer<typeof OpenUploadRequest>;

/** An upload about to be streamed: its name and how many bytes it has in all. */
export const BeginUploadRequest = s.object({
  name: s.string({ nonEmpty: true, max: 512 }),
  size: s.index(),
});
export type BeginUploadRequest = Infer<typeof BeginUploadRequest>;

export const UploadTicket = s.object({ uploadId: s.string({ nonEmpty: true, max: 64 }) });
export type UploadTicket = Infer<typeof UploadTicket>;

/** The largest piece of an upload one message carries (before base64). */
export const MAX_UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** The next bytes of an upload, at `offset` (the bytes received so far: pieces come in order). */
export const UploadChunkRequest = s.object({
  uploadId: s.string({ nonEmpty: true, max: 64 }),
  offset: s.index(),
  base64: s.string({ nonEmpty: true, max: Math.ceil(MAX_UPLOAD_CHUNK_BYTES / 3) * 4 }),
});
export type UploadChunkRequest = Infer<typeof UploadChunkRequest>;

/** The page cannot send the rest of an upload (the file could not be read): the session fails with `message`. */
export const AbortUploadRequest = s.object({
  uploadId: s.string({ nonEmpty: true, max: 64 }),
  message: s.string({ max: 1000 }),
});
export type AbortUploadRequest = Infer<typeof AbortUploadRequest>;

/** One entry of a HAR file, to choose the entries to open (src-shared/recording/har.ts). */
export const HarEntry = s.object({
  /** Position in the file's `log.entries`. */
  index: s.index(),
  method: s.string({ max: 64 }),
  url: s.string({ max: 8192 }),
  status: s.number({ integer: true }),
  mimeType: s.string({ max: 512 }),
  /** Body size in bytes as the HAR says (-1: unknown). */
  size: s.number({ integer: true }),
  isStream: s.boolean(),
  hasBody: s.boolean(),
  startedDateTime: s.string({ max: 64 }),
});
export type HarEntry = Infer<typeof HarEntry>;

/** Most entries a HAR offers to choose from (a page load's HAR may hold thousands). */
export const HAR_ENTRIES_MAX = 5000;

/** The HAR entries to open, in order, as the legs of the session that waits for the choice. */
export const OpenHarEntriesRequest = s.object({
  sessionId: SessionId,
  entries: s.array(s.index(), { max: HAR_ENTRIES_MAX }),
});
export type OpenHarEntriesRequest = Infer<typeof OpenHarEntriesRequest>;
