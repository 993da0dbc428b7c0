import type { ConnectRequest } from '../../../src-shared/contract/payloads';
import type { RecordedRequest } from '../../../src-shared/recording/types';
import type { ConnectionSpec } from './connection';

/**
 * Turns what the user typed in the connect form (or on the command line) into a request,
 * refusing what cannot be sent with a message saying what to fix. Nothing is guessed
 * silently except one thing a user expects: a JSON body gets `Content-Type: application/json`
 * when no Content-Type was given.
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

export interface BuiltRequest {
  spec: ConnectionSpec;
  /** The request as sent, body as text (redact before showing or writing it). */
  recorded: RecordedRequest;
}

export function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`'${text}' is not a valid URL; include the scheme, e.g. http://127.0.0.1:8000/agent/run`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`Only http and https URLs can be opened (got ${url.protocol})`);
  return url;
}

export function checkHeaders(headers: readonly [string, string][]): [string, string][] {
  const out: [string, string][] = [];
  for (const [rawName, value] of headers) {
    const name = rawName.trim();
    if (name === '' && value === '') continue; // an empty row of the headers table
    if (!TOKEN.test(name)) throw new Error(`Header name '${rawName}' is not valid: use letters, digits and -`);
    if (/[\r\n\0]/.test(value)) throw new Error(`Header '${name}' has a line break or NUL in its value`);
    out.push([name, value]);
  }
  return out;
}

export function buildRequest(input: ConnectRequest): BuiltRequest {
  const url = parseHttpUrl(input.url);
  const method = input.method.toUpperCase();
  const headers = checkHeaders(input.headers);
  let bodyText: string | null = null;
  if (input.body) {
    if (METHODS_WITHOUT_BODY.has(method) && input.body.text !== '')
      throw new Error(`A ${method} request cannot carry a body; use POST or clear the body`);
    if (input.body.text !== '' || input.body.kind === 'raw') bodyText = input.body.text;
    if (input.body.kind === 'json' && bodyText !== null) {
      try {
        JSON.parse(bodyText);
      } catch (error) {
        throw new Error(`The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!headers.some(([n]) => n.toLowerCase() === 'content-type'))
        headers.push(['Content-Type', 'application/json']);
    }
  }
  if (input.reconnect && method !== 'GET') {
    throw new Error(`Reconnecting is only offered for GET streams: re-sending a ${method} would start a new agent run`);
  }
  const spec: ConnectionSpec = {
    url,
    method,
    headers,
    ...(bodyText !== null ? { body: new TextEncoder().encode(bodyText) } : {}),
    ...(input.acceptAnyContentType ? { acceptAnyContentType: true } : {}),
    ...(input.timeouts ? { timeouts: input.timeouts } : {}),
  };
  return { spec, recorded: { method, url: url.href, headers, body: bodyText } };
}
