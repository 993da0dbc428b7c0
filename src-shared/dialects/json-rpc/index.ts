import type { SniffedFrame } from '../sniff';
import type { DialectModule } from '../types';
import { createJsonRpcDecoder } from './decoder';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** Positive evidence of a JSON-RPC 2.0 message: `"jsonrpc": "2.0"` and a method, a result or an error. */
function isRpcObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const object = value as Record<string, unknown>;
  return object['jsonrpc'] === '2.0' && ('method' in object || 'result' in object || 'error' in object);
}

/**
 * A JSON-RPC 2.0 message (MCP Streamable HTTP, A2A streaming), or a batch of them (a JSON
 * array whose first member is one). The `"jsonrpc"` text is looked for before anything is
 * parsed: most frames of other dialects never are.
 */
function isJsonRpc(frame: SniffedFrame): boolean {
  const first = frame.data.charCodeAt(frame.start);
  if ((first !== OPEN_BRACE && first !== OPEN_BRACKET) || !frame.data.includes('"jsonrpc"')) return false;
  if (first === OPEN_BRACE) return isRpcObject(frame.json());
  try {
    const batch: unknown = JSON.parse(frame.data);
    return Array.isArray(batch) && isRpcObject(batch[0]);
  } catch {
    return false;
  }
}

/** JSON-RPC 2.0 over SSE: MCP's Streamable HTTP transport and A2A's streaming methods. */
export const jsonRpcDialect: DialectModule<'json-rpc'> = {
  id: 'json-rpc',
  label: 'JSON-RPC (MCP, A2A)',
  detect: isJsonRpc,
  create: createJsonRpcDecoder,
  syntax: 'json',
  terminator: 'dialect',
  terminalEvent: 'its response (A2A: a status update with final: true)',
  // MCP's endpoint is conventionally /mcp; A2A's is in the agent card, /a2a where it has its own path.
  evidence: { urlPaths: ['/mcp', '/a2a'] },
  // The parts of tool results, messages and artifacts that are not text (content.ts): shown, never parsed for protocols.
  blockKinds: {
    image: { label: 'Image' },
    audio: { label: 'Audio' },
    resource: { label: 'Resource' },
    resource_link: { label: 'Resource link' },
    structured_content: { label: 'Structured content' },
    content: { label: 'Content' },
    file: { label: 'File' },
    data: { label: 'Data' },
    part: { label: 'Part' },
  },
};
