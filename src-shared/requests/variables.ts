import type { ConnectRequest } from '../contract/payloads';

/**
 * Environment variables in a request, as Postman and Insomnia write them: `{{base_url}}`,
 * `{{ token }}`. Only a name of letters, digits, `_`, `.` and `-` (starting with a letter or
 * `_`) makes a reference, so template text such as `{{#each}}` or `{{ }}` in a body is left
 * as written. Substitution happens in main, once, just before connecting: values never
 * contain references themselves (no recursion, no cycles).
 */

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const REFERENCE = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

export interface Variable {
  readonly name: string;
  readonly value: string;
  /** Kept encrypted where the platform can, never sent back to the renderer, masked in what is shown or written. */
  readonly secret: boolean;
}

/** Where a reference was found, for the message that names an unknown one. */
export type VariablePlace = 'URL' | 'header name' | 'header value' | 'body';

export class UnknownVariableError extends Error {
  override readonly name = 'UnknownVariableError';
  constructor(
    readonly variable: string,
    readonly place: VariablePlace,
    environment: string | null,
  ) {
    super(
      environment === null
        ? `The request uses {{${variable}}} (in the ${place}) but no environment is selected: choose one that defines ${variable}, or replace {{${variable}}} with a value.`
        : `The request uses {{${variable}}} (in the ${place}) but the environment "${environment}" does not define it: add ${variable} to it, choose another environment, or replace {{${variable}}} with a value.`,
    );
  }
}

/** The names a text refers to, in order of first use. */
export function referencedNames(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) names.add(match[1] as string);
  return [...names];
}

/** Every name a request refers to (URL, header names and values, body). */
export function requestReferences(request: Pick<ConnectRequest, 'url' | 'headers' | 'body'>): string[] {
  const texts = [request.url, ...request.headers.flat(), request.body?.text ?? ''];
  return [...new Set(texts.flatMap(referencedNames))];
}

/**
 * Replaces each reference by `valueOf(name)`; a name it returns undefined for throws
 * UnknownVariableError naming it and where it was used.
 */
export function substitute(
  text: string,
  valueOf: (name: string) => string | undefined,
  place: VariablePlace,
  environment: string | null,
): string {
  if (!text.includes('{{')) return text;
  return text.replace(REFERENCE, (_whole, name: string) => {
    const value = valueOf(name);
    if (value === undefined) throw new UnknownVariableError(name, place, environment);
    return value;
  });
}

/** How a request's references are filled in. */
export type ResolveMode =
  /** Every value as it is (what goes on the wire). */
  | 'wire'
  /** Secret variables stay `{{name}}`; the others take their values (what may be shown or written). */
  | 'masked';

/**
 * The request with its references filled from `variables`. In JSON bodies a value is inserted
 * as the text of a JSON string when the reference sits inside one (`"Bearer {{token}}"`), so a
 * value with a quote or a backslash keeps the body valid; a reference outside a string
 * (`{"n": {{count}}}`) takes the value as written.
 */
export function resolveRequest<R extends Pick<ConnectRequest, 'url' | 'headers' | 'body'>>(
  request: R,
  variables: readonly Variable[],
  environment: string | null,
  mode: ResolveMode = 'wire',
): R {
  const byName = new Map(variables.map((v) => [v.name, v]));
  const plain = (name: string): string | undefined => {
    const variable = byName.get(name);
    if (!variable) return undefined;
    return mode === 'masked' && variable.secret ? `{{${name}}}` : variable.value;
  };
  const url = substitute(request.url, plain, 'URL', environment);
  const headers = request.headers.map(([name, value]): [string, string] => [
    substitute(name, plain, 'header name', environment),
    substitute(value, plain, 'header value', environment),
  ]);
  let body = request.body;
  if (body) {
    const text =
      body.kind === 'json'
        ? substituteInJson(body.text, plain, environment)
        : substitute(body.text, plain, 'body', environment);
    body = { ...body, text };
  }
  return { ...request, url, headers, ...(body ? { body } : {}) };
}

/** Inside a JSON string literal a value is escaped as JSON string content; elsewhere it is inserted as written. */
function substituteInJson(
  text: string,
  valueOf: (name: string) => string | undefined,
  environment: string | null,
): string {
  if (!text.includes('{{')) return text;
  let out = '';
  let from = 0;
  let inString = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (inString && c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"') {
      inString = !inString;
      i++;
      continue;
    }
    if (c === '{' && text[i + 1] === '{') {
      REFERENCE.lastIndex = i;
      const match = REFERENCE.exec(text);
      if (match && match.index === i) {
        const name = match[1] as string;
        const value = valueOf(name);
        if (value === undefined) throw new UnknownVariableError(name, 'body', environment);
        out += text.slice(from, i) + (inString ? JSON.stringify(value).slice(1, -1) : value);
        i += match[0].length;
        from = i;
        continue;
      }
    }
    i++;
  }
  REFERENCE.lastIndex = 0;
  return out + text.slice(from);
}

/**
 * Replaces every occurrence of the secret values (as written, percent-encoded as a URL would
 * carry them, and escaped as JSON string content) with `{{name}}`: what the recording, the
 * session's request and every export show of a request that was sent with them. Longer
 * values first, so a secret that contains another is masked whole.
 */
export function maskSecrets(text: string, secrets: readonly { name: string; value: string }[]): string {
  let out = text;
  const ordered = [...secrets].filter((s) => s.value !== '').sort((a, b) => b.value.length - a.value.length);
  for (const { name, value } of ordered)
    for (const form of secretForms(value)) out = out.split(form).join(`{{${name}}}`);
  return out;
}

/** The ways a secret value appears in what is sent or echoed: as written, percent-encoded, escaped as JSON string content. */
export function secretForms(value: string): string[] {
  return [...new Set([value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)])];
}
