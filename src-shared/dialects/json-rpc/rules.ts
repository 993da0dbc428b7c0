import type { RuleInfo } from '../../diagnostics/rules';

/**
 * The JSON-RPC dialect's own rules (MCP Streamable HTTP and A2A streaming). Severity follows the
 * catalogue's principle: `error` where a client loses or rejects what the stream carries (a
 * message it cannot read, a response it drops, events after the stream's end, a stream cut
 * before its answer, a request that failed), `warning` for a deviation that loses nothing (a
 * tool that failed inside a healthy protocol exchange, progress that does not increase, a cut
 * stream the client may resume), `info` for what the protocol allows.
 */
export const JSON_RPC_RULES = {
  'json-rpc.invalid-message': {
    severity: 'error',
    layer: 'dialect',
    title:
      'Message is not valid JSON-RPC 2.0 (not JSON, no "jsonrpc": "2.0", both result and error, neither method nor result…)',
    dialects: ['json-rpc'],
  },
  'json-rpc.unknown-id': {
    severity: 'error',
    layer: 'dialect',
    title: 'Response for an id that is not the request this stream answers (a client drops it)',
    dialects: ['json-rpc'],
  },
  'json-rpc.error': {
    severity: 'error',
    layer: 'dialect',
    title: 'JSON-RPC error response: the request failed',
    dialects: ['json-rpc'],
  },
  'json-rpc.tool-error': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Tool result with isError: true (the tool failed; the protocol did not)',
    dialects: ['json-rpc'],
  },
  'json-rpc.task-failed': {
    severity: 'error',
    layer: 'dialect',
    title: 'A2A task ended failed or rejected',
    dialects: ['json-rpc'],
  },
  'json-rpc.artifact-out-of-order': {
    severity: 'error',
    layer: 'dialect',
    title: 'A2A artifact chunk out of order: an append to an artifact never started, or a chunk after its lastChunk',
    dialects: ['json-rpc'],
  },
  'json-rpc.after-end': {
    severity: 'error',
    layer: 'dialect',
    title: 'Message after the response (MCP) or after the final status update (A2A) that ended the stream',
    dialects: ['json-rpc'],
  },
  'json-rpc.truncated': {
    severity: 'error',
    layer: 'dialect',
    title: 'Stream ended before its response (MCP) or its final status update (A2A)',
    dialects: ['json-rpc'],
  },
  'json-rpc.resumable-end': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Stream ended before its response, but its events carry ids: a client may resume it (MCP)',
    dialects: ['json-rpc'],
  },
  'json-rpc.no-response': {
    severity: 'info',
    layer: 'dialect',
    title: 'Stream of server-initiated messages only, with no response (a GET stream ends so)',
    dialects: ['json-rpc'],
  },
  'json-rpc.progress-backwards': {
    severity: 'warning',
    layer: 'dialect',
    title: 'Progress notification whose progress does not increase for its token',
    dialects: ['json-rpc'],
  },
  'json-rpc.unknown-state': {
    severity: 'warning',
    layer: 'dialect',
    title: "A2A task state that is none of the protocol's states: a client that checks it rejects the event (A2A)",
    dialects: ['json-rpc'],
  },
} as const satisfies Record<string, RuleInfo>;
