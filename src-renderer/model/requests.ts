import type { RequestTemplate, SavedRequest } from '../../src-shared/contract';
import {
  emptyForm,
  formFromCurl,
  formFromRequest,
  formToRequest,
  type ConnectForm,
  type FieldErrors,
} from './connect-form';

/**
 * Saved requests as the renderer handles them: the connect form to and from a request
 * template (what main keeps, `{{variables}}` as written), the name a new one gets, and the
 * name of a copy.
 */

export type TemplateResult = { ok: true; template: RequestTemplate } | { ok: false; errors: FieldErrors };

/** The form as a template to save; the same checks as connecting (a run's title is not part of it). */
export function formToTemplate(form: ConnectForm): TemplateResult {
  const result = formToRequest(form);
  if (!result.ok) return result;
  const { url, method, headers, body, format, inline, acceptAnyContentType } = result.request;
  return {
    ok: true,
    template: {
      url,
      method,
      headers,
      ...(body ? { body } : {}),
      ...(format ? { format } : {}),
      ...(inline ? { inline } : {}),
      ...(acceptAnyContentType ? { acceptAnyContentType } : {}),
    },
  };
}

/** The connect form showing a saved request (Save then updates it). */
export function formFromSaved(saved: SavedRequest): ConnectForm {
  return { ...formFromRequest(saved.request), savedId: saved.id };
}

/** A pasted curl command as a template (throws CurlParseError with a clear message). */
export function templateFromCurl(command: string): RequestTemplate {
  const result = formToTemplate(formFromCurl(command, emptyForm()));
  if (!result.ok) throw new Error(Object.values(result.errors)[0] ?? 'The command does not make a request.');
  return result.template;
}

/** What a new saved request is called: the form's title, else its method and where it goes (`POST /agent/run on 127.0.0.1:8787`). */
export function defaultRequestName(template: RequestTemplate, title = ''): string {
  if (title.trim() !== '') return title.trim();
  const match = /^([a-z]+:\/\/)?([^/?#]*)([^?#]*)/i.exec(template.url);
  const host = match?.[2] ?? '';
  const path = match?.[3] || '/';
  return host === '' ? `${template.method} ${template.url}` : `${template.method} ${path} on ${host}`;
}

/** `Name copy`, or `Name copy 2`, … when that is taken. */
export function copyName(name: string, taken: readonly string[]): string {
  const base = `${name.replace(/ copy( \d+)?$/, '')} copy`;
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) if (!taken.includes(`${base} ${n}`)) return `${base} ${n}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago", else the date. */
export function timeAgo(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  if (days < 7) return `${days} day${days === 1 ? '' : 's'} ago`;
  return new Date(at).toISOString().slice(0, 10);
}
