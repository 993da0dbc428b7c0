import type { BlockDetail, BlockSummary } from '../../src-shared/contract';
import { stringifyJson } from '../../src-shared/json/tree';
import { base64DecodedLength } from '../../src-shared/recording/base64';
import { displayJson } from './json-display';
import { ERROR_FRAME_KIND } from '../../src-shared/envelope/kinds';
import { KIND } from '../../src-shared/envelope/vocabulary';
import { DIALECT_REGISTRY } from '../../src-shared/dialects/registry';
import { blockKindLabels, inlineTreatments } from '../../src-shared/dialects/traits';

/**
 * How the blocks view shows a block: its kind's label and presentation, and what its content
 * holds (pretty JSON, an error frame, files, images, links). The threads they sit in are
 * model/threads.ts.
 */

// ─── Labels ─────────────────────────────────────────────────────────────────────────────

const KIND_LABELS: Record<string, string> = {
  thinking: 'Thinking',
  text: 'Text',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  server_tool_call: 'Server tool call',
  server_tool_result: 'Server tool result',
  meta_init: 'meta_init',
  meta_final: 'meta_final',
  meta_files: 'Files',
  error: 'Error',
  error_frame: 'Server error frame',
  awaiting_frontend_tools: 'Awaiting frontend tools',
  message: 'Message',
  refusal: 'Refusal',
  reasoning_summary: 'Reasoning summary',
  redacted_thinking: 'Redacted thinking',
  custom_tool_call: 'Custom tool call',
};

/** Block kinds the dialects add (DialectModule.blockKinds): their labels, and those that are one segment each. */
const DIALECT_KIND_LABELS = blockKindLabels(DIALECT_REGISTRY);
const INLINE_TREATMENTS = inlineTreatments(DIALECT_REGISTRY);

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? DIALECT_KIND_LABELS.get(kind) ?? kind;
}

/** How a block's content is presented. */
export type BlockPresentation =
  | 'markdown'
  | 'thinking'
  | 'tool-call'
  | 'tool-result'
  | 'json'
  | 'files'
  | 'error'
  | 'awaiting'
  | 'segment'
  | 'state'
  | 'plain';

export function presentationOf(kind: string): BlockPresentation {
  switch (kind) {
    case KIND.text:
    case KIND.refusal:
      return 'markdown';
    case KIND.thinking:
    case KIND.reasoning_summary:
    case KIND.redacted_thinking:
      return 'thinking';
    case KIND.tool_call:
    case KIND.server_tool_call:
    case KIND.custom_tool_call:
      return 'tool-call';
    case KIND.tool_result:
    case KIND.server_tool_result:
      return 'tool-result';
    case KIND.meta_init:
    case KIND.meta_final:
    case KIND.message:
      return 'json';
    case KIND.meta_files:
      return 'files';
    case KIND.error:
    case ERROR_FRAME_KIND:
      return 'error';
    case KIND.awaiting_frontend_tools:
      return 'awaiting';
    case KIND.state:
      return 'state';
    default:
      return INLINE_TREATMENTS.get(kind) === 'segment' ? 'segment' : 'plain';
  }
}

// ─── Content helpers ────────────────────────────────────────────────────────────────────

/** A block's payload: the parsed one, else its content when that is a JSON object or array; undefined otherwise. */
export function payloadOf(detail: Pick<BlockDetail, 'parsed' | 'content'>): unknown {
  if (detail.parsed !== undefined) return detail.parsed;
  const text = detail.content.trim();
  if (text === '' || (text[0] !== '{' && text[0] !== '[')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Pretty JSON of a parsed payload, or of the content when it parses; null when it is not JSON. */
export function prettyJson(
  detail: Pick<BlockDetail, 'parsed' | 'content'>,
  payload = payloadOf(detail),
): string | null {
  return payload === undefined ? null : (displayJson(payload) ?? null);
}

/**
 * A version key of a block's summary: a cached detail is current while its key matches (the
 * content only grows, and a status, citation or image change bumps it too).
 */
export function detailKey(
  block: Pick<
    BlockSummary,
    'length' | 'status' | 'envelopeCount' | 'citations' | 'images' | 'linkedBlock' | 'segmentTypes'
  >,
): string {
  return `${block.status}:${block.length}:${block.envelopeCount}:${block.citations}:${block.images}:${block.linkedBlock ?? ''}:${block.segmentTypes?.join(',') ?? ''}`;
}

export interface ErrorFrame {
  error: string;
  message: string;
  traceback: string | null;
}

/** The `{"error","message","traceback"}` of a router error frame (the block's parsed payload). */
export function errorFrameOf(parsed: unknown): ErrorFrame | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const p = parsed as Record<string, unknown>;
  const text = (v: unknown): string | null =>
    typeof v === 'string' ? v : v === undefined || v === null ? null : (stringifyJson(v) ?? null);
  const error = text(p['error']);
  const message = text(p['message']);
  if (error === null && message === null) return null;
  return { error: error ?? 'error', message: message ?? '', traceback: text(p['traceback']) };
}

export interface MetaFile {
  id: string;
  name: string;
  fields: Record<string, unknown>;
}

/** The files of a meta_files payload (`{"files":[{file_id, filename, …}]}`); [] when it has none. */
export function metaFilesOf(parsed: unknown): MetaFile[] {
  if (typeof parsed !== 'object' || parsed === null) return [];
  const files = (parsed as Record<string, unknown>)['files'];
  if (!Array.isArray(files)) return [];
  return files.flatMap((entry: unknown): MetaFile[] => {
    if (typeof entry !== 'object' || entry === null) return [];
    const fields = entry as Record<string, unknown>;
    const id = fields['file_id'];
    const name = fields['filename'] ?? fields['name'] ?? fields['path'];
    return [{ id: typeof id === 'string' ? id : '', name: typeof name === 'string' ? name : '(unnamed)', fields }];
  });
}

// ─── URLs in untrusted content ──────────────────────────────────────────────────────────

export type ImageSource =
  /** `bytes`: what the base64 payload decodes to. */
  | { kind: 'data'; src: string; mediaType: string; bytes: number }
  | { kind: 'remote'; url: string }
  | { kind: 'unsupported'; reason: string };

const DATA_IMAGE_PREFIX = /^data:(image\/(?:png|jpeg|jpg|gif|webp|bmp|avif|svg\+xml));base64,/i;

/**
 * What an image reference may do: a base64 data URI of an image type is shown inline (it
 * loads nothing); an http(s) URL becomes a link fetched only on click; anything else
 * (javascript:, file:, relative paths) is shown as text.
 */
export function classifyImageSource(src: string): ImageSource {
  const trimmed = src.trim();
  const head = trimmed.slice(0, 64);
  if (/^data:/i.test(head)) {
    // The prefix decides; the payload is whatever follows (an <img> of a data URI loads nothing).
    const match = DATA_IMAGE_PREFIX.exec(head);
    if (match?.[1])
      return {
        kind: 'data',
        src: trimmed,
        mediaType: match[1].toLowerCase(),
        bytes: base64DecodedLength(trimmed, match[0].length),
      };
    return { kind: 'unsupported', reason: 'data URI that is not a base64 image' };
  }
  const url = safeExternalUrl(trimmed);
  if (url) return { kind: 'remote', url };
  return { kind: 'unsupported', reason: 'not an http(s) or data: image URL' };
}

const MEDIA_TYPE_KEYS = ['mediaType', 'mimeType', 'media_type', 'mime_type'] as const;

/**
 * The image a block's JSON payload carries, whatever the dialect: an object with an image
 * media type and either a `url` (a data: URI or an http(s) address, as the AI SDK's file parts
 * send it) or base64 `data` (the v4 data stream's, Gemini's inlineData). Null for anything
 * else; what the source may do is still `classifyImageSource`'s call.
 */
export function payloadImage(parsed: unknown): { src: string; mediaType: string } | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const fields = parsed as Record<string, unknown>;
  const mediaType = MEDIA_TYPE_KEYS.map((key) => fields[key]).find((value) => typeof value === 'string');
  if (typeof mediaType !== 'string' || !/^image\//i.test(mediaType)) return null;
  const { url, data } = fields;
  if (typeof url === 'string' && url !== '') return { src: url, mediaType };
  if (typeof data === 'string' && data !== '') return { src: `data:${mediaType};base64,${data}`, mediaType };
  return null;
}

/**
 * The web page a block's JSON payload points at, as a source part does (the AI SDK's
 * `source-url`, the v4 stream's `h` sources): an object with an http(s) `url` that is not an
 * image, and its `title` when it has one. Null for anything else.
 */
export function payloadLink(parsed: unknown): { url: string; title: string | undefined } | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || payloadImage(parsed)) return null;
  const { url, title } = parsed as Record<string, unknown>;
  const href = typeof url === 'string' ? safeExternalUrl(url) : null;
  if (!href) return null;
  return { url: href, title: typeof title === 'string' && title !== '' ? title : undefined };
}

/** An absolute http(s) URL as a string, or null (relative, javascript:, file:, malformed). */
export function safeExternalUrl(href: string | undefined | null): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
