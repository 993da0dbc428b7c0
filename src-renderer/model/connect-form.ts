import type {
  ConnectRequest,
  DemoAgentInfo,
  FormatChoice,
  InlineOptionsPayload,
  RequestInfo,
  RequestTemplate,
} from '../../src-shared/contract';
import { isDialectId } from '../../src-shared/dialects/registry';
import { DEFAULT_TOOL_TAGS, INLINE_MODES, type InlineMode } from '../../src-shared/inline/types';
import { requestReferences } from '../../src-shared/requests/variables';
import { parseCurl, toCurl } from './curl';

/**
 * The connect form as data: what the user typed, presets, and the conversions to a
 * ConnectRequest and to/from curl. The view only renders it and calls these functions.
 */

export interface HeaderRow {
  readonly id: number;
  readonly name: string;
  readonly value: string;
  readonly enabled: boolean;
}

export type BodyKind = 'json' | 'raw' | 'none';
/** 'demo', 'upstream', 'custom', or a provider preset's id (the demo agent's provider APIs). */
export type PresetId = string;
export type ProviderPreset = NonNullable<DemoAgentInfo>['providers'][number];

export interface ConnectForm {
  readonly preset: PresetId;
  readonly url: string;
  readonly method: string;
  readonly headers: readonly HeaderRow[];
  readonly bodyKind: BodyKind;
  readonly body: string;
  /** Dialect override for decoding; 'auto' detects it. */
  readonly format: FormatChoice;
  /** How the session's text blocks are read for in-text protocols (docs/inline.md). */
  readonly inline: InlineMode;
  /** Decode the response as a stream whatever its content type (RequestTemplate.acceptAnyContentType). */
  readonly anyContentType: boolean;
  readonly title: string;
  /** The saved request the form was opened from (Save updates it); null for an unsaved form. */
  readonly savedId: string | null;
}

/** The inline options a mode stands for, with the default tool tags; none for auto (main's default). */
export function inlineOptions(mode: InlineMode): InlineOptionsPayload | undefined {
  return mode === 'auto'
    ? undefined
    : { mode, tools: DEFAULT_TOOL_TAGS.map((t) => ({ name: t.name, required: [...t.required] })) };
}

export const UPSTREAM_DEFAULT_URL = 'http://localhost:8000/agent/run';
export const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const;

let nextHeaderId = 1;

export function headerRow(name = '', value = '', enabled = true): HeaderRow {
  return { id: nextHeaderId++, name, value, enabled };
}

export function emptyForm(): ConnectForm {
  return {
    preset: 'custom',
    url: '',
    method: 'POST',
    headers: [],
    bodyKind: 'json',
    body: '{\n  \n}',
    format: 'auto',
    inline: 'auto',
    anyContentType: false,
    title: '',
    savedId: null,
  };
}

/** The form showing a request (a preset's, a saved one's). */
export function formFromRequest(
  request: RequestTemplate & { title?: string },
  preset: PresetId = 'custom',
): ConnectForm {
  return {
    preset,
    url: request.url,
    method: request.method,
    headers: request.headers.map(([name, value]) => headerRow(name, value)),
    bodyKind: request.body ? request.body.kind : 'none',
    body: request.body?.text ?? '',
    format: request.format ?? 'auto',
    inline: request.inline?.mode ?? 'auto',
    anyContentType: request.acceptAnyContentType === true,
    title: request.title ?? '',
    savedId: null,
  };
}

export function demoForm(demo: NonNullable<DemoAgentInfo>): ConnectForm {
  return formFromRequest(demo.defaultRequest, 'demo');
}

export function upstreamForm(url = UPSTREAM_DEFAULT_URL): ConnectForm {
  return {
    preset: 'upstream',
    url,
    method: 'POST',
    headers: [headerRow('Accept', 'text/event-stream')],
    bodyKind: 'json',
    body: JSON.stringify({ user_prompt: 'Hello! What can you do?', agent_type: 'agent_frontend_tools' }, null, 2),
    format: 'auto',
    inline: 'auto',
    anyContentType: false,
    title: '',
    savedId: null,
  };
}

/**
 * A provider API preset: the demo agent's `/v1/messages` or `/v1/responses` with a streaming
 * request in that API's shape (its first scenario picked). Point the URL at the provider
 * itself and add the key header to inspect the real API.
 */
export function providerForm(provider: ProviderPreset): ConnectForm {
  const scenario = provider.scenarios[0]?.id;
  const body: unknown = JSON.parse(provider.sampleBody);
  return {
    preset: provider.id,
    url: provider.url,
    method: 'POST',
    headers: provider.sampleHeaders.map((h) => headerRow(h.name, h.value)),
    bodyKind: 'json',
    body: JSON.stringify(scenario === undefined ? body : { ...(body as object), scenario }, null, 2),
    format: 'auto',
    inline: 'auto',
    anyContentType: false,
    title: '',
    savedId: null,
  };
}

export type FieldErrors = Partial<Record<'url' | 'method' | 'headers' | 'body', string>>;

export type FormResult = { ok: true; request: ConnectRequest } | { ok: false; errors: FieldErrors };

/** Checks the form and builds the request main will send. */
export function formToRequest(form: ConnectForm): FormResult {
  const errors: FieldErrors = {};
  const url = form.url.trim();
  // A URL with {{variables}} is checked by main once the environment has filled them in.
  if (url === '') errors.url = 'Enter the URL of the streaming endpoint.';
  else if (!/^https?:\/\/[^/\s]+/i.test(url) && !usesVariables(url))
    errors.url =
      'The URL must start with http:// or https:// and name a host, or with a {{variable}} such as {{base_url}}.';
  const method = form.method.trim().toUpperCase();
  if (!/^[A-Z]+$/.test(method)) errors.method = 'The method is letters only (GET, POST …).';
  const headers: [string, string][] = [];
  for (const row of form.headers) {
    if (!row.enabled || (row.name.trim() === '' && row.value.trim() === '')) continue;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(row.name.trim())) {
      errors.headers = `"${row.name}" is not a valid header name.`;
      break;
    }
    headers.push([row.name.trim(), row.value]);
  }
  let body: ConnectRequest['body'];
  if (form.bodyKind !== 'none') {
    if (method === 'GET' || method === 'HEAD') {
      if (form.body.trim() !== '') errors.body = `A ${method} request has no body: choose "none" or another method.`;
    } else if (form.bodyKind === 'json') {
      const problem = usesVariables(form.body) ? null : jsonProblem(form.body);
      if (problem) errors.body = `The body is not valid JSON: ${problem}`;
      else body = { kind: 'json', text: form.body };
    } else {
      body = { kind: 'raw', text: form.body };
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const title = form.title.trim();
  return {
    ok: true,
    request: {
      url,
      method,
      headers,
      ...(body ? { body } : {}),
      ...(form.format !== 'auto' ? { format: form.format } : {}),
      ...(form.inline !== 'auto' ? { inline: inlineOptions(form.inline) } : {}),
      ...(form.anyContentType ? { acceptAnyContentType: true } : {}),
      ...(title ? { title } : {}),
    },
  };
}

/** The text refers to environment variables (`{{name}}`): main fills them in before sending. */
export function usesVariables(text: string): boolean {
  return requestReferences({ url: text, headers: [] }).length > 0;
}

function jsonProblem(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Fills the form from a pasted curl command (throws CurlParseError with a clear message). */
export function formFromCurl(command: string, previous: ConnectForm): ConnectForm {
  const parsed = parseCurl(command);
  const headers = parsed.headers.filter(
    ([name]) => !(parsed.bodyIsJson && name.toLowerCase() === 'content-type' && parsed.body !== undefined),
  );
  let bodyKind: BodyKind = 'none';
  let body = '';
  if (parsed.body !== undefined) {
    bodyKind = parsed.bodyIsJson || jsonProblem(parsed.body) === null ? 'json' : 'raw';
    body = bodyKind === 'json' ? prettyJson(parsed.body) : parsed.body;
    // A JSON body keeps an explicit non-JSON content type; a raw body keeps whatever was given.
    if (bodyKind === 'raw') headers.splice(0, headers.length, ...parsed.headers);
  }
  return {
    ...previous,
    preset: 'custom',
    savedId: null,
    url: parsed.url,
    method: parsed.method,
    headers: headers.map(([name, value]) => headerRow(name, value)),
    bodyKind,
    body,
  };
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The form's request as a curl command (for the clipboard). */
export function formToCurl(form: ConnectForm): string {
  const result = formToRequest(form);
  if (!result.ok) throw new Error(Object.values(result.errors)[0] ?? 'The form is incomplete.');
  return requestToCurl(result.request);
}

/** A request (the form's or a recorded session's) as a curl command. */
export function requestToCurl(request: ConnectRequest | RequestInfo): string {
  const headers: [string, string][] = [...request.headers];
  let body: string | undefined;
  if ('body' in request && request.body !== undefined) {
    if (typeof request.body === 'string') {
      body = request.body;
    } else {
      body = request.body.text;
      if (request.body.kind === 'json' && !headers.some(([n]) => n.toLowerCase() === 'content-type'))
        headers.push(['Content-Type', 'application/json']);
    }
  }
  return toCurl({ method: request.method, url: request.url, headers, ...(body !== undefined ? { body } : {}) });
}

/**
 * Reads a top-level string field of the JSON body (scenario, format, agent_type); null when
 * the body is not a JSON object or the field is absent.
 */
export function bodyField(form: ConnectForm, field: string): string | null {
  if (form.bodyKind !== 'json') return null;
  try {
    const value: unknown = JSON.parse(form.body);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const fieldValue = (value as Record<string, unknown>)[field];
      return typeof fieldValue === 'string' ? fieldValue : null;
    }
  } catch {
    // Not JSON: the pickers show nothing selected.
  }
  return null;
}

/**
 * Sets (or with null removes) a top-level field of the JSON body, keeping the other fields and
 * their order. Throws with a clear message when the body is not a JSON object.
 */
export function withBodyField(form: ConnectForm, field: string, value: string | null): ConnectForm {
  let parsed: unknown;
  try {
    parsed = JSON.parse(form.bodyKind === 'json' ? form.body : '');
  } catch {
    throw new Error(`The body is not a JSON object, so "${field}" cannot be set: fix the body or reset the preset.`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new Error(`The body is not a JSON object, so "${field}" cannot be set.`);
  const next: Record<string, unknown> = { ...(parsed as Record<string, unknown>) };
  if (value === null) delete next[field];
  else next[field] = value;
  return { ...form, body: JSON.stringify(next, null, 2) };
}

/** The form remembered between runs (header ids are not). */
export interface StoredForm {
  readonly version: 1;
  readonly form: Omit<ConnectForm, 'headers'> & { headers: [string, string, boolean][] };
}

/** Header names whose values are secrets: remembered by name only, never written to storage. */
export function isSecretHeader(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$|token|secret|password|session/i.test(
    name.trim(),
  );
}

export function serializeForm(form: ConnectForm): string {
  const headers = form.headers.map((h): [string, string, boolean] => [
    h.name,
    isSecretHeader(h.name) ? '' : h.value,
    h.enabled,
  ]);
  const stored: StoredForm = { version: 1, form: { ...form, headers } };
  return JSON.stringify(stored);
}

/** The remembered form, or null when nothing usable is stored. */
export function deserializeForm(text: string | null): ConnectForm | null {
  if (!text) return null;
  try {
    const stored = JSON.parse(text) as Partial<StoredForm>;
    const form = stored.form;
    if (stored.version !== 1 || !form || typeof form.url !== 'string' || !Array.isArray(form.headers)) return null;
    return {
      preset: typeof form.preset === 'string' && /^[a-z][a-z0-9-]{0,63}$/.test(form.preset) ? form.preset : 'custom',
      url: form.url,
      method: typeof form.method === 'string' ? form.method : 'POST',
      headers: form.headers
        .filter((h) => Array.isArray(h) && h.length === 3)
        .map(([name, value, enabled]) => headerRow(String(name), String(value), enabled !== false)),
      bodyKind: form.bodyKind === 'raw' || form.bodyKind === 'none' ? form.bodyKind : 'json',
      body: typeof form.body === 'string' ? form.body : '',
      format: typeof form.format === 'string' && isDialectId(form.format) ? form.format : 'auto',
      inline: INLINE_MODES.find((m) => m === form.inline) ?? 'auto',
      anyContentType: form.anyContentType === true,
      title: typeof form.title === 'string' ? form.title : '',
      savedId: typeof form.savedId === 'string' ? form.savedId : null,
    };
  } catch {
    return null;
  }
}
