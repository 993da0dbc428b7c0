import type { ToolResult } from '../../../src-shared/contract/payloads';
import type { ClientToolContinuation } from '../../../src-shared/dialects/types';
import type { PendingTool } from '../../../src-shared/reconstruct/types';
import type { RecordedRequest } from '../../../src-shared/recording/types';
import type { ConnectionSpec } from '../connection/connection';

/**
 * Answering an `awaiting_frontend_tools` pause: where to POST, with which headers and body
 * (docs/protocols/upstream-protocol.md §8 #33), or, for a dialect that continues its runs
 * itself, the request its hook builds (buildClientToolRequest). Everything is derived from the run's own request in main;
 * the renderer only supplies the results, and at most a path on the same origin and extra
 * body fields.
 */

export const TOOL_RESULTS_PATH = '/agent/tool_results';
const RUN_PATH = /\/agent\/run(\/multipart)?\/?$/;

/** Body fields of the run request carried over to the continuation (same agent config and format). */
const CARRIED_FIELDS = ['agent_type', 'format'] as const;

/**
 * The tool-results URL for a run URL: `…/agent/run` becomes `…/agent/tool_results` (any
 * mount prefix kept), otherwise the origin's `/agent/tool_results`. The run URL's query is
 * kept because the demo server (and proxies) select the format there. An explicit `path`
 * (with its own query) replaces both, always on the run's origin.
 */
export function toolResultsUrl(runUrl: string, path?: string): URL {
  const run = new URL(runUrl);
  if (path !== undefined) {
    if (!path.startsWith('/') || path.startsWith('//'))
      throw new Error(`The tool-results path must start with a single /, got '${path}'`);
    return new URL(path, run.origin);
  }
  const target = new URL(run.href);
  target.hash = '';
  target.pathname = RUN_PATH.test(run.pathname) ? run.pathname.replace(RUN_PATH, TOOL_RESULTS_PATH) : TOOL_RESULTS_PATH;
  return target;
}

/** The path and query main would POST to, for showing in the prompt. */
export function defaultToolResultsPath(runUrl: string): string {
  const url = toolResultsUrl(runUrl);
  return `${url.pathname}${url.search}`;
}

/** agent_type (and format) from the run's JSON body, so the continuation runs the same agent config. */
export function defaultExtraBody(runBody: string | null): Record<string, unknown> {
  if (runBody === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(runBody);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  const out: Record<string, unknown> = {};
  for (const field of CARRIED_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value === 'string') out[field] = value;
  }
  return out;
}

/**
 * `{agent_uuid, tool_results: [{tool_use_id, content, is_error}], …extra}`. `agent_uuid` and
 * `tool_results` always come from the session and the results; extra fields cannot replace them.
 */
export function buildToolResultsBody(
  agentUuid: string,
  results: readonly ToolResult[],
  extraBody: Record<string, unknown> = {},
): string {
  const { agent_uuid: _a, tool_results: _t, ...extra } = extraBody;
  return JSON.stringify({
    agent_uuid: agentUuid,
    tool_results: results.map((r) => ({
      tool_use_id: r.tool_use_id,
      content: r.content,
      is_error: r.is_error ?? false,
    })),
    ...extra,
  });
}

/** Headers that describe the run's body, not the continuation's: never copied. */
const BODY_HEADERS = new Set([
  'content-length',
  'content-type',
  'transfer-encoding',
  'content-encoding',
  'last-event-id',
  'host',
]);

/** The run's headers (credentials included: this happens in main) with a JSON content type. */
export function continuationHeaders(runHeaders: readonly [string, string][]): [string, string][] {
  return [
    ...runHeaders.filter(([name]) => !BODY_HEADERS.has(name.toLowerCase())),
    ['Content-Type', 'application/json'],
  ];
}

/**
 * Checks the results against the pending set: the legacy server rejects any set that is not
 * exactly the pending ids (and agent_base silently accepts them), so mistakes are caught here;
 * a tool waiting for its approval takes an approval, any other a result.
 */
export function checkResults(pending: readonly PendingTool[], results: readonly ToolResult[]): string | null {
  const byId = new Map(pending.map((t) => [t.toolUseId, t]));
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const result of results) {
    const tool = byId.get(result.tool_use_id);
    if (seen.has(result.tool_use_id)) problems.push(`${result.tool_use_id} is answered twice`);
    else if (!tool) problems.push(`${result.tool_use_id} is not a pending tool`);
    else if (tool.approvalId !== undefined && result.approved === undefined)
      problems.push(`${tool.name} (${tool.toolUseId}) waits for an approval (approve or deny), not a result`);
    else if (tool.approvalId === undefined && result.approved !== undefined)
      problems.push(`${tool.name} (${tool.toolUseId}) waits for a result, not an approval`);
    seen.add(result.tool_use_id);
  }
  const missing = pending.filter((t) => !seen.has(t.toolUseId));
  if (missing.length > 0) problems.push(`no result for ${missing.map((t) => `${t.name} (${t.toolUseId})`).join(', ')}`);
  // A pause with no call (Anthropic's pause_turn) is continued with none.
  if (results.length === 0 && pending.length > 0) problems.push('no results given');
  return problems.length === 0 ? null : `The results do not match the pending tools: ${problems.join('; ')}.`;
}

export interface ToolResultsRequestInit {
  /** The run's request as sent (URL, headers with credentials, JSON body). */
  run: RecordedRequest;
  agentUuid: string;
  results: readonly ToolResult[];
  path?: string;
  /** All extra body fields; absent: agent_type (and format) carried over from the run's body. */
  extraBody?: Record<string, unknown>;
}

/** The full continuation request: what is POSTed, and the same as a RecordedRequest for the recording. */
export function buildToolResultsRequest(init: ToolResultsRequestInit): {
  spec: ConnectionSpec;
  recorded: RecordedRequest;
} {
  if (init.agentUuid === '')
    throw new Error(
      'The agent uuid of the paused run is unknown (no meta_init and no agent on the awaiting_frontend_tools event), so the results cannot be addressed',
    );
  const url = toolResultsUrl(init.run.url, init.path);
  const body = buildToolResultsBody(init.agentUuid, init.results, init.extraBody ?? defaultExtraBody(init.run.body));
  const headers = continuationHeaders(init.run.headers);
  return {
    spec: { url, method: 'POST', headers, body: new TextEncoder().encode(body) },
    recorded: { method: 'POST', url: url.href, headers, body },
  };
}

export interface ClientToolRequestInit {
  /** The run's request as sent (URL, headers with credentials). */
  run: RecordedRequest;
  /** The body of the leg that paused (the run's, or a continuation's), as sent. */
  previousBody: string | null;
  /** The calls the leg paused on, and the whole pause payload its dialect emitted. */
  calls: readonly PendingTool[];
  pause: unknown;
  results: readonly ToolResult[];
  /** How the paused leg's dialect continues a run (DialectModule.clientTools). */
  continuation: ClientToolContinuation;
}

/**
 * A run whose dialect continues itself (the AI SDK, AG-UI): the next request is the run's
 * own, to the same URL with the same headers, and the body the dialect builds from the
 * paused leg's body and the answers, as the dialect's frontend would send it.
 */
export function buildClientToolRequest(init: ClientToolRequestInit): {
  spec: ConnectionSpec;
  recorded: RecordedRequest;
} {
  if (init.previousBody === null)
    throw new Error('The request that paused was sent without a body, so there is no conversation to continue.');
  const body = init.continuation.continueBody({
    previousBody: init.previousBody,
    calls: init.calls,
    answers: init.results.map((r) => ({
      toolUseId: r.tool_use_id,
      content: r.content,
      isError: r.is_error ?? false,
      ...(r.approved !== undefined ? { approved: r.approved } : {}),
    })),
    pause: init.pause,
  });
  const url = new URL(init.run.url);
  const headers = continuationHeaders(init.run.headers);
  return {
    spec: { url, method: init.run.method, headers, body: new TextEncoder().encode(body) },
    recorded: { method: init.run.method, url: url.href, headers, body },
  };
}
