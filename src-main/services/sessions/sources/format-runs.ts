import type { ConnectRequest } from '../../../../src-shared/contract/payloads';
import type { WireFormat } from '../../../../src-shared/agents/wire-formats';
import { parseJsonObject } from '../../../../src-shared/json/values';
import type { BuiltRequest } from '../../connection/request-spec';

/**
 * "Run this scenario in xml and json": the request of a live session again, with only its
 * wire format changed, so the two runs can be diffed. The demo agent (and servers built like
 * it) reads the format from `?format=` in the query or from a `format` field of the JSON body
 * (docs/protocols/upstream-protocol.md §9): the variant sets it where the original request
 * had it, else in the JSON body; a request with neither a format in its query nor a JSON
 * object body cannot be varied and is refused with a message saying why.
 */

export function requestInFormat(
  built: BuiltRequest,
  format: WireFormat,
  options: Pick<ConnectRequest, 'inline'> = {},
): ConnectRequest {
  const { spec } = built;
  const url = new URL(spec.url.href);
  let body = built.recorded.body;
  if (url.searchParams.has('format')) {
    url.searchParams.set('format', format);
  } else {
    const parsed = body === null ? undefined : parseJsonObject(body);
    if (!parsed)
      throw new Error(
        `The request has no JSON object body and no ?format= in its URL, so there is no place to ask for ${format}: connect with a JSON body such as {"user_prompt": "…", "format": "${format}"}.`,
      );
    body = JSON.stringify({ ...parsed, format });
  }
  return {
    url: url.href,
    method: spec.method,
    // The headers as sent (Content-Type included): the body goes out exactly as built here.
    headers: spec.headers.map(([name, value]): [string, string] => [name, value]),
    ...(body !== null ? { body: { kind: 'raw' as const, text: body } } : {}),
    ...(spec.acceptAnyContentType ? { acceptAnyContentType: true } : {}),
    ...(spec.timeouts ? { timeouts: spec.timeouts } : {}),
    ...(options.inline ? { inline: options.inline } : {}),
  };
}
