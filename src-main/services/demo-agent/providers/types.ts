import type { DialectId } from '../../../../src-shared/dialects/registry';

/**
 * One event of a provider stream: the `event:` name ('' for a data-only event), the SSE `id:`
 * a resumable stream gives it (MCP), and the data, a JSON object or text sent as is (`[DONE]`,
 * a data stream's `0:"text"` line, MCP's empty priming data).
 */
export interface ProviderEvent {
  event: string;
  id?: string;
  data: Record<string, unknown> | string;
}

/**
 * A scripted provider stream. `cut` ends the body right after the last event (no terminal
 * event), as a dropped connection does.
 */
export interface ProviderScenario {
  id: string;
  title: string;
  summary: string;
  events: ProviderEvent[];
  cut?: boolean;
}

/** The SSE bytes of one event, as the provider APIs write them (`event:` and `id:` lines only when given). */
export function providerSse(event: ProviderEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return `${event.event === '' ? '' : `event: ${event.event}\n`}${event.id === undefined ? '' : `id: ${event.id}\n`}data: ${data}\n\n`;
}

/**
 * One provider API the demo agent serves: its route, the dialect its streams are, how an
 * event is written on its wire, and the request a connect preset sends to it.
 */
export interface ProviderApiSpec {
  /** The connect preset's id. */
  id: string;
  dialect: DialectId;
  /** The route's path; `{model}` matches one path segment's text (Gemini's `models/{model}:streamGenerateContent`). */
  path: string;
  /**
   * A query parameter, `name=value`, a request must carry to get this API: two APIs on one
   * path are told apart by it (the AI SDK's `?protocol=data`); the one without it is the default.
   */
  query?: string;
  title: string;
  scenarios: readonly ProviderScenario[];
  /** How one event is written; default `providerSse`. */
  encode?: (event: ProviderEvent) => string;
  /** Response headers besides the SSE ones (a content type, a protocol header). */
  headers?: Readonly<Record<string, string>>;
  /**
   * A second wire the route answers with when the request's query asks for it (Gemini streams
   * one JSON array when `alt=sse` is absent): how event `index` of a stream is written (where
   * the array's `[` and commas go), what ends a stream that is not cut, and its headers.
   */
  alternateWire?: {
    when: (query: URLSearchParams) => boolean;
    encode: (event: ProviderEvent, index: number) => string;
    close: string;
    headers: Readonly<Record<string, string>>;
  };
  /** A request the API answers without `"stream": true` (JSON-RPC has no such flag; Gemini's URL says it). */
  streamsWithoutFlag?: boolean;
  /** The scenario a request asks for by its body, before the prompt's keywords (a tool result continuing a run). */
  choose?: (body: unknown) => string | undefined;
  /** The scenario as it answers this request's body (JSON-RPC responses carry the request's id). */
  answer?: (scenario: ProviderScenario, body: unknown) => ProviderScenario;
  /** The preset's request: body (JSON, `scenario` filled in by the preset), headers and the path's query. */
  sample: { body: Record<string, unknown>; headers?: readonly (readonly [string, string])[]; query?: string };
  /** The extension of its scenarios' fixture files: `sse`, or `txt` for a wire that is not SSE. Default `sse`. */
  fixtureExtension?: 'sse' | 'txt';
}

/** The path a route template stands for, with a sample model in place of `{model}` (and the API's own query). */
export function samplePath(api: ProviderApiSpec): string {
  return api.path.replace('{model}', 'demo-model') + (api.sample.query ?? (api.query ? `?${api.query}` : ''));
}

/** Whether a request's query selects this API among those on its path (see ProviderApiSpec.query). */
export function matchesQuery(api: ProviderApiSpec, query: URLSearchParams): boolean {
  if (!api.query) return true;
  const [name = '', value = ''] = api.query.split('=');
  return query.get(name) === value;
}

/** Whether a request path is this API's route. */
export function matchesPath(api: ProviderApiSpec, path: string): boolean {
  if (!api.path.includes('{model}')) return path === api.path;
  const [before = '', after = ''] = api.path.split('{model}');
  return (
    path.startsWith(before) &&
    path.endsWith(after) &&
    !path.slice(before.length, path.length - after.length).includes('/') &&
    path.length > before.length + after.length
  );
}
