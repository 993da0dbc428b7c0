import { STATUS_CODES } from 'node:http';
import { redactBody, redactUrl } from '../../../src-shared/recording/redact';
import type { Failure } from '../../../src-shared/contract/payloads';
import type { EndFacts } from '../../../src-shared/pipeline/end-status';

/**
 * Turns what went wrong on a connection into a message a user can act on. Each kind of
 * failure has its own wording; the raw system code stays attached for searching.
 */

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL']);
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|EPROTO$|ERR_SSL$|HOSTNAME_MISMATCH)/;

function hostOf(url: URL): string {
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

/** The code of a response that went on past its own length (http-transport.ts). */
export const OVERRUN_CODE = 'EOVERRUN';

/** What a failure says was dropped from the stream (bytes past the response's length), for the end status; else undefined. */
export function droppedBytesOf(failure: { code?: string; message: string } | undefined): Pick<EndFacts, 'lostData'> {
  return failure?.code === OVERRUN_CODE ? { lostData: failure.message } : {};
}

export function classifyNetworkError(
  error: Error & { code?: string },
  url: URL,
  phase: 'connect' | 'body',
  bytes: number,
): Failure {
  const code = error.code;
  const base = { code } as const;
  if (phase === 'body' && code === OVERRUN_CODE) {
    return { kind: 'aborted', message: `${error.message}; the ${bytes} bytes before them are kept.`, ...base };
  }
  if (phase === 'body') {
    return {
      kind: 'aborted',
      message: `The connection was cut off in the middle of the stream after ${bytes} bytes (${code ?? error.message}); every byte received is kept.`,
      ...base,
    };
  }
  if (code && DNS_CODES.has(code)) {
    return {
      kind: 'dns',
      message: `Could not resolve the host name ${url.hostname} (${code}). Check the URL.`,
      ...base,
    };
  }
  if (code === 'ECONNREFUSED') {
    return {
      kind: 'network',
      message: `Connection refused by ${hostOf(url)}: nothing is listening there. Is the server running?`,
      ...base,
    };
  }
  if (code && TLS_CODE.test(code)) {
    return { kind: 'tls', message: `TLS handshake with ${hostOf(url)} failed: ${error.message} (${code}).`, ...base };
  }
  if (code === 'ECONNRESET' || code === 'EPIPE') {
    return { kind: 'network', message: `${hostOf(url)} closed the connection before answering (${code}).`, ...base };
  }
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'ETIMEDOUT') {
    return { kind: 'network', message: `${hostOf(url)} cannot be reached (${code}).`, ...base };
  }
  return {
    kind: 'network',
    message: `Request to ${hostOf(url)} failed: ${error.message}${code ? ` (${code})` : ''}.`,
    ...base,
  };
}

const STATUS_HINTS: Record<number, string> = {
  400: 'the server rejected the request',
  401: 'authentication is missing or wrong (check the Authorization header)',
  403: 'the server refused access (check credentials)',
  404: 'nothing at this path (check the URL)',
  405: 'this method is not allowed here (check the method)',
  413: 'the request body is too large',
  415: 'the server does not accept this Content-Type',
  422: "the request body failed the server's validation",
  429: 'rate limited',
  502: 'a proxy could not reach the server',
  503: 'the server is unavailable',
  504: 'a proxy timed out waiting for the server',
};

/** What a redirect says: where it points (secrets in the target redacted), or that it points nowhere. */
function redirectHint(location: string | undefined, base: URL): string {
  if (location === undefined || location.trim() === '')
    return 'a redirect without a Location header, so it points nowhere';
  let target = location;
  try {
    target = new URL(location, base).href;
  } catch {
    // Not a URL: name it as sent.
  }
  return `redirects to ${redactUrl(target)}; redirects are not followed (that could send the request again), so connect to that URL if it is the right one`;
}

export interface StatusContext {
  /** The request URL, to resolve a relative Location against. */
  url: URL;
  location?: string;
}

export function httpStatusFailure(
  status: number,
  statusText: string,
  contentType: string,
  body: string,
  bodyTruncated: boolean,
  context?: StatusContext,
): Failure {
  const text = statusText || STATUS_CODES[status] || '';
  const hint =
    status === 204
      ? 'the server has no stream to send (an EventSource stops on a 204 and does not reconnect)'
      : status >= 300 && status <= 399 && context
        ? redirectHint(context.location, context.url)
        : (STATUS_HINTS[status] ?? (status >= 500 ? 'the server failed' : 'not a successful response'));
  return {
    kind: 'http-status',
    message: `HTTP ${status}${text ? ` ${text}` : ''}: ${hint}. No stream was decoded${body ? '; the response body is shown' : ''}.`,
    status,
    contentType,
    body: shownBody(body, contentType),
    bodyTruncated,
  };
}

/** A rejected response's body as the failure shows it: what the server sent, with secrets redacted by name (a redirect page quoting `?token=…`). */
function shownBody(body: string, contentType: string): string {
  return redactBody(body, contentType) ?? '';
}

/**
 * Why a response that is not a stream was not decoded: its status when it is no plain success
 * (a 204 included: it has no body at all), else its Content-Type. `url`: the request's, so a
 * redirect can name its target.
 */
export function rejectedResponseFailure(
  response: { status: number; statusText: string; headers: readonly [string, string][] },
  body: string,
  bodyTruncated: boolean,
  url?: URL,
): Failure {
  const header = (name: string): string | undefined => response.headers.find(([n]) => n.toLowerCase() === name)?.[1];
  const contentType = header('content-type') ?? '';
  if (response.status >= 200 && response.status <= 299 && response.status !== 204)
    return contentTypeFailure(response.status, contentType, body, bodyTruncated);
  const location = header('location');
  const context = url === undefined ? undefined : location === undefined ? { url } : { url, location };
  return httpStatusFailure(response.status, response.statusText, contentType, body, bodyTruncated, context);
}

export function contentTypeFailure(status: number, contentType: string, body: string, bodyTruncated: boolean): Failure {
  const got = contentType === '' ? 'no Content-Type' : contentType;
  const looksHtml = /^text\/html/i.test(contentType) || /^\s*<(!doctype|html)/i.test(body);
  const hint = looksHtml ? ' An HTML page here is often a login page or a proxy error.' : '';
  return {
    kind: 'content-type',
    message: `Expected a stream (text/event-stream, NDJSON, a JSON array streamed element by element) but got ${got} (HTTP ${status}). It was not decoded as a stream.${hint} The body is shown; to decode it anyway, tick "Decode any content type" in Connect (the CLI's record: --any-content-type).`,
    status,
    contentType,
    body: shownBody(body, contentType),
    bodyTruncated,
  };
}

export function encodingFailure(status: number, contentType: string, encoding: string): Failure {
  return {
    kind: 'content-type',
    message: `The stream is compressed (Content-Encoding: ${encoding}); compressed streams are not decoded. Remove Accept-Encoding from the request headers.`,
    status,
    contentType,
  };
}

export function timeoutFailure(phase: 'connect' | 'response', url: URL, ms: number): Failure {
  const seconds = ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
  return phase === 'connect'
    ? { kind: 'timeout', message: `Could not connect to ${hostOf(url)} within ${seconds}.` }
    : { kind: 'timeout', message: `${hostOf(url)} accepted the request but sent no response within ${seconds}.` };
}

export function idleFailure(ms: number, bytes: number): Failure {
  return {
    kind: 'idle-timeout',
    message: `No data for ${Math.round(ms / 1000)} s after ${bytes} bytes; gave up waiting (idle timeout). Every byte received is kept.`,
  };
}
