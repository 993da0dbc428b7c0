import type { Failure } from '../../../src-shared/contract/payloads';
import {
  announcesStream,
  framingOfChunks,
  isJsonMediaType,
  type Framing,
} from '../../../src-shared/pipeline/leg-framing';
import {
  encodingFailure,
  idleFailure,
  classifyNetworkError,
  rejectedResponseFailure,
  timeoutFailure,
} from './failures';
import { nodeHttpTransport, type HttpResponseHead, type HttpTransport } from './http-transport';

/**
 * One live HTTP exchange whose response body is a stream. It decides, from the response head,
 * whether the body is a stream at all: a 2xx `text/event-stream` response, one whose headers
 * announce a line-framed wire (the AI SDK's v4 data stream, NDJSON's media types), or a 2xx
 * `application/json` one whose body is a JSON array (an API streaming its responses without
 * SSE, as Gemini does without `alt=sse`; its first bytes decide), is handed on chunk by chunk
 * with receive times; anything else is captured (up to a cap) as text to show the user, so
 * the decoder never runs over an HTML login page or a JSON error.
 */

export interface ConnectionSpec {
  url: URL;
  method: string;
  headers: [string, string][];
  body?: Uint8Array;
  /** Decode the body even when the response is not text/event-stream (still 2xx only). */
  acceptAnyContentType?: boolean;
  timeouts?: ConnectionTimeouts;
}

export interface ConnectionTimeouts {
  /** TCP + TLS handshake. Default 15 s. */
  connectMs?: number;
  /** Request sent → response head. Default 60 s. */
  responseMs?: number;
  /** Silence on an open stream before giving up; 0 or absent = wait forever (agents run long tools). */
  idleMs?: number;
}

export interface ConnectionHandlers {
  /** Every response head, accepted or not (the user sees status and headers either way). */
  onResponse?(head: HttpResponseHead, accepted: boolean): void;
  /** A chunk of an accepted stream, exactly as received. */
  onChunk(bytes: Uint8Array, receivedAt: number): void;
  /** A chunk of a rejected body (kept for the recording; not decoded). */
  onRejectedChunk?(bytes: Uint8Array, receivedAt: number): void;
}

export type ConnectionEndReason = 'complete' | 'stopped' | 'failed' | 'aborted';

export interface ConnectionOutcome {
  reason: ConnectionEndReason;
  failure?: Failure;
  /** Bytes of the accepted stream. */
  bytes: number;
  status?: number;
}

export interface ConnectionProgress {
  startedAt: number;
  status?: number;
  bytes: number;
  chunks: number;
  /** Receive time of the last chunk (or the response head before any chunk). */
  lastActivityAt: number;
}

export interface Connection {
  readonly done: Promise<ConnectionOutcome>;
  /** Closes the request now; `done` resolves with reason 'stopped'. */
  stop(): void;
  /**
   * Stops reading the stream until `resume` (the consumer, a recording on a slow disk, is
   * behind): TCP slows the server down instead of memory filling up. The idle timeout does
   * not run while paused.
   */
  pause(): void;
  resume(): void;
  progress(): ConnectionProgress;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ConnectionDeps {
  transport?: HttpTransport;
  /** Receive-time clock in ms (default: wall clock with sub-millisecond precision). */
  now?: () => number;
  timers?: Timers;
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 15_000;
export const DEFAULT_RESPONSE_TIMEOUT_MS = 60_000;
/** How much of a rejected body is kept to show (an HTML page, a JSON error). */
export const REJECTED_BODY_CAP = 64 * 1024;

export const wallClock = (): number => performance.timeOrigin + performance.now();
export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function headerValue(headers: readonly [string, string][], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([n]) => n.toLowerCase() === lower)?.[1];
}

export function openConnection(
  spec: ConnectionSpec,
  handlers: ConnectionHandlers,
  deps: ConnectionDeps = {},
): Connection {
  const transport = deps.transport ?? nodeHttpTransport;
  const now = deps.now ?? wallClock;
  const timers = deps.timers ?? realTimers;
  const connectMs = spec.timeouts?.connectMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
  const responseMs = spec.timeouts?.responseMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
  const idleMs = spec.timeouts?.idleMs ?? 0;

  const progress: ConnectionProgress = { startedAt: now(), bytes: 0, chunks: 0, lastActivityAt: now() };
  let resolveDone!: (outcome: ConnectionOutcome) => void;
  const done = new Promise<ConnectionOutcome>((resolve) => (resolveDone = resolve));
  let settled = false;
  let timer: unknown = null;
  let mode: 'waiting' | 'sniffing' | 'stream' | 'rejected' = 'waiting';
  /** A 2xx JSON response while its first bytes decide whether it is a streamed JSON array. */
  let sniffing: {
    head: HttpResponseHead;
    contentType: string;
    held: { chunk: Uint8Array; receivedAt: number }[];
    size: number;
    framingOf: (chunk: Uint8Array) => Framing | undefined;
  } | null = null;
  let rejected: {
    head: HttpResponseHead;
    contentType: string;
    parts: Uint8Array[];
    size: number;
    truncated: boolean;
    encodingOnly?: string;
  } | null = null;

  const clearTimer = (): void => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
  const arm = (ms: number, onFire: () => void): void => {
    clearTimer();
    if (ms > 0) timer = timers.setTimeout(onFire, ms);
  };
  const settle = (outcome: Omit<ConnectionOutcome, 'bytes' | 'status'>): void => {
    if (settled) return;
    settled = true;
    clearTimer();
    resolveDone({
      ...outcome,
      bytes: progress.bytes,
      ...(progress.status === undefined ? {} : { status: progress.status }),
    });
  };
  const failWith = (failure: Failure, reason: ConnectionEndReason = 'failed'): void => {
    exchange.abort();
    settle({ reason, failure });
  };

  /** The rejected response is reported once: the socket closes then, whatever the server still trickles. */
  const finishRejected = (): void => {
    if (!rejected || settled) return;
    exchange.abort();
    const text = new TextDecoder('utf-8', { fatal: false }).decode(concat(rejected.parts, rejected.size));
    const { head, contentType, truncated } = rejected;
    if (rejected.encodingOnly !== undefined)
      settle({ reason: 'failed', failure: encodingFailure(head.status, contentType, rejected.encodingOnly) });
    else settle({ reason: 'failed', failure: rejectedResponseFailure(head, text, truncated, spec.url) });
  };

  let paused = false;
  const armIdle = (): void => {
    if (idleMs > 0 && !paused) arm(idleMs, () => failWith(idleFailure(idleMs, progress.bytes)));
    else clearTimer();
  };

  const accept = (head: HttpResponseHead): void => {
    handlers.onResponse?.(head, true);
    mode = 'stream';
    armIdle();
  };

  const reject = (head: HttpResponseHead, contentType: string, encodingOnly: string | undefined): void => {
    handlers.onResponse?.(head, false);
    mode = 'rejected';
    rejected = {
      head,
      contentType,
      parts: [],
      size: 0,
      truncated: false,
      ...(encodingOnly !== undefined ? { encodingOnly } : {}),
    };
    // Keep a bounded wait for the rest of the body, so a server that holds it open does not hang us.
    arm(responseMs, finishRejected);
    if (encodingOnly !== undefined) {
      exchange.abort();
      finishRejected();
    }
  };

  /** A chunk of the accepted stream, handed on with its receive time. */
  const streamChunk = (chunk: Uint8Array, receivedAt: number): void => {
    progress.bytes += chunk.byteLength;
    progress.chunks += 1;
    armIdle();
    try {
      handlers.onChunk(chunk, receivedAt);
    } catch (error) {
      // What receives the stream could not keep this chunk (a spool file on a full
      // disk): the exchange ends as failed, with that reason, instead of going on
      // without the bytes or throwing out of the socket's event.
      failWith(consumerFailure(error));
    }
  };

  /** The JSON body's first bytes decided (or it ended first): a streamed array is accepted, anything else shown. */
  const finishSniffing = (framing: Framing | undefined): void => {
    const held = sniffing;
    if (!held || settled) return;
    sniffing = null;
    if (framing === 'json-array') {
      accept(held.head);
      for (const { chunk, receivedAt } of held.held) if (!settled) streamChunk(chunk, receivedAt);
      return;
    }
    reject(held.head, held.contentType, undefined);
    for (const { chunk, receivedAt } of held.held) {
      handlers.onRejectedChunk?.(chunk, receivedAt);
      if (!rejected) break;
      rejected.parts.push(chunk);
      rejected.size += chunk.byteLength;
    }
  };

  const exchange = transport(
    { url: spec.url, method: spec.method, headers: spec.headers, ...(spec.body ? { body: spec.body } : {}) },
    {
      onConnected() {
        arm(responseMs, () => failWith(timeoutFailure('response', spec.url, responseMs)));
      },
      onResponse(head) {
        if (settled) return;
        progress.status = head.status;
        progress.lastActivityAt = now();
        const contentType = headerValue(head.headers, 'content-type') ?? '';
        // An empty Content-Encoding names no coding: the body is as sent (RFC 9110 §8.4).
        const encoding = (headerValue(head.headers, 'content-encoding') ?? '').trim().toLowerCase() || 'identity';
        const ok = head.status >= 200 && head.status <= 299 && head.status !== 204;
        const stream = announcesStream(head.headers) || spec.acceptAnyContentType === true;
        if (ok && encoding === 'identity' && stream) return accept(head);
        if (ok && encoding === 'identity' && isJsonMediaType(contentType)) {
          // A JSON body is a stream when it is a JSON array sent element by element (Gemini
          // without alt=sse); a JSON object is a one-off answer or an error, shown. Its first
          // bytes decide.
          mode = 'sniffing';
          sniffing = { head, contentType, held: [], size: 0, framingOf: framingOfChunks() };
          arm(responseMs, () => finishSniffing(undefined));
          return;
        }
        reject(head, contentType, ok && encoding !== 'identity' ? encoding : undefined);
      },
      onData(chunk) {
        if (settled) return;
        const receivedAt = now();
        progress.lastActivityAt = receivedAt;
        if (mode === 'sniffing' && sniffing) {
          sniffing.held.push({ chunk, receivedAt });
          sniffing.size += chunk.byteLength;
          const framing = sniffing.framingOf(chunk);
          if (framing || sniffing.size >= REJECTED_BODY_CAP) finishSniffing(framing);
          return;
        }
        if (mode === 'stream') return streamChunk(chunk, receivedAt);
        if (!rejected) return;
        handlers.onRejectedChunk?.(chunk, receivedAt);
        const room = REJECTED_BODY_CAP - rejected.size;
        rejected.parts.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
        rejected.size += Math.min(room, chunk.byteLength);
        if (chunk.byteLength > room) {
          rejected.truncated = true;
          exchange.abort();
          finishRejected();
        }
      },
      onEnd() {
        if (mode === 'sniffing') finishSniffing(undefined);
        if (mode === 'rejected') finishRejected();
        else settle({ reason: 'complete' });
      },
      onError(error) {
        if (settled) return;
        if (mode === 'sniffing') finishSniffing(undefined);
        if (mode === 'rejected') {
          finishRejected();
          return;
        }
        const failure = classifyNetworkError(error, spec.url, mode === 'stream' ? 'body' : 'connect', progress.bytes);
        settle({ reason: mode === 'stream' ? 'aborted' : 'failed', failure });
      },
    },
  );
  arm(connectMs, () => failWith(timeoutFailure('connect', spec.url, connectMs)));

  return {
    done,
    stop() {
      if (settled) return;
      exchange.abort();
      settle({ reason: 'stopped' });
    },
    pause() {
      if (settled || paused) return;
      paused = true;
      exchange.pause?.();
      if (mode === 'stream') clearTimer();
    },
    resume() {
      if (settled || !paused) return;
      paused = false;
      exchange.resume?.();
      if (mode === 'stream') armIdle();
    },
    progress: () => ({ ...progress }),
  };
}

/** A failure of the stream's consumer, with its message (which says what failed) and system code. */
export function consumerFailure(error: unknown): Failure {
  const code = (error as { code?: unknown } | null)?.code;
  return {
    kind: 'internal',
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
