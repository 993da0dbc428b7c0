import { jsonText } from '../../json/tree';
import { isJsonObject, jsonKind } from '../../json/values';

/** A JSON-RPC id: a string or a number (null only in an error for a request whose id could not be read). */
export type RpcId = string | number | null;

export interface RpcError {
  code: number | undefined;
  message: string;
  data: unknown;
}

/**
 * One JSON-RPC 2.0 message as the stream carries it, classified by its members: a request
 * (`method` and `id`), a notification (`method`, no `id`), a result or an error response.
 * `problems` lists what makes it invalid JSON-RPC 2.0; a message with problems is still
 * classified when its members allow it, so its content is decoded and never lost.
 */
export type RpcMessage = (
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  | { kind: 'notification'; method: string; params: unknown }
  | { kind: 'result'; id: RpcId; result: unknown }
  | { kind: 'error'; id: RpcId; error: RpcError }
  | { kind: 'unreadable' }
) & { readonly body: Record<string, unknown>; readonly problems: readonly string[] };

/** The key an id is compared by: `1` and `"1"` are different ids. */
export function idKey(id: RpcId): string {
  return typeof id === 'string' ? `s:${id}` : id === null ? 'null' : `n:${id}`;
}

/** An id as the findings show it. */
export function showId(id: RpcId): string {
  return jsonText(id);
}

function isId(value: unknown): value is RpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || value === null;
}

function readError(value: unknown, problems: string[]): RpcError {
  if (!isJsonObject(value)) {
    problems.push(`its "error" is a JSON ${jsonKind(value)}, not an object with a code and a message`);
    return { code: undefined, message: typeof value === 'string' ? value : jsonText(value), data: undefined };
  }
  const code = value['code'];
  const message = value['message'];
  if (typeof code !== 'number' || !Number.isInteger(code)) problems.push('its error has no integer "code"');
  if (typeof message !== 'string') problems.push('its error has no string "message"');
  return {
    code: typeof code === 'number' && Number.isInteger(code) ? code : undefined,
    message: typeof message === 'string' ? message : '',
    data: value['data'],
  };
}

/** Reads one parsed JSON value as a JSON-RPC 2.0 message. */
export function readRpcMessage(value: unknown): RpcMessage {
  if (!isJsonObject(value))
    return {
      kind: 'unreadable',
      body: {},
      problems: [`it is a JSON ${jsonKind(value)}, not a JSON-RPC message object`],
    };
  const body = value;
  const problems: string[] = [];
  const version = body['jsonrpc'];
  if (version === undefined) problems.push('it has no "jsonrpc": "2.0" member');
  else if (version !== '2.0') problems.push(`its "jsonrpc" is ${jsonText(version)}, not "2.0"`);
  const hasId = 'id' in body;
  const id = body['id'];
  if (hasId && !isId(id)) problems.push(`its "id" is a JSON ${jsonKind(id)}, not a string or a number`);
  const rpcId: RpcId = isId(id) ? id : null;
  const method = body['method'];
  const hasResult = 'result' in body;
  const hasError = 'error' in body;

  if (method !== undefined) {
    if (typeof method !== 'string') {
      problems.push(`its "method" is a JSON ${jsonKind(method)}, not a string`);
      return { kind: 'unreadable', body, problems };
    }
    if (hasResult || hasError) problems.push(`it has both a "method" and a${hasResult ? ' "result"' : 'n "error"'}`);
    const params = body['params'];
    if (params !== undefined && typeof params !== 'object')
      problems.push(`its "params" is a JSON ${jsonKind(params)}, not an object or an array`);
    if (hasId && id === null) problems.push('it is a request with a null "id"');
    return hasId
      ? { kind: 'request', id: rpcId, method, params, body, problems }
      : { kind: 'notification', method, params, body, problems };
  }
  if (hasResult && hasError) {
    problems.push('it has both a "result" and an "error" (a response has exactly one)');
    return { kind: 'unreadable', body, problems };
  }
  if (!hasResult && !hasError) {
    problems.push('it has no "method", "result" or "error"');
    return { kind: 'unreadable', body, problems };
  }
  if (!hasId) problems.push('it is a response without an "id"');
  if (hasResult) {
    if (hasId && id === null) problems.push('it is a result with a null "id" (null is only for errors)');
    return { kind: 'result', id: rpcId, result: body['result'], body, problems };
  }
  return { kind: 'error', id: rpcId, error: readError(body['error'], problems), body, problems };
}
