/**
 * Evidence beyond the bytes: what an exchange's request URL and response headers say about
 * the dialect of its stream. A dialect declares its own (`DialectModule.evidence`, in its
 * folder); the leg decoder consults it only when the bytes claim no dialect
 * (docs/dialects.md, "Evidence beyond the bytes").
 */

/** A response header that says a stream is in a dialect. */
export interface HeaderEvidence {
  /** The header's name, in lower case (`x-vercel-ai-ui-message-stream`). */
  readonly name: string;
  /**
   * The value it must have, compared without case and without parameters after `;`
   * (`content-type: application/x-ndjson; charset=utf-8` has the value `application/x-ndjson`);
   * absent: the header's presence is the evidence.
   */
  readonly value?: string;
}

/** What a dialect declares besides its bytes: the endpoints and response headers of its streams. */
export interface DialectEvidence {
  /**
   * Endings of the request URL's path that name this dialect's endpoint: `/v1/messages`
   * matches `https://api.anthropic.com/v1/messages` and a proxy's `/anthropic/v1/messages`;
   * `:streamGenerateContent` matches `/v1beta/models/gemini-2.5-pro:streamGenerateContent`.
   * The query, the fragment and trailing slashes are not part of the path.
   */
  readonly urlPaths?: readonly string[];
  /** Response headers that name this dialect. A header is stronger evidence than the URL. */
  readonly headers?: readonly HeaderEvidence[];
}

/** What a leg's exchange says besides its bytes; live legs, HAR entries and recordings know both. */
export interface ExchangeHints {
  /** The request URL as sent. */
  readonly url?: string;
  /** The response headers as received (names in any case). */
  readonly headers?: readonly (readonly [string, string])[];
}

/** The evidence that named a dialect: which kind, and what matched (shown to the user). */
export interface EvidenceMatch<M> {
  readonly module: M;
  readonly by: 'header' | 'url';
  /** What matched: `x-vercel-ai-ui-message-stream: v1`, or the path ending `/v1/responses`. */
  readonly what: string;
}

/** The path of a URL (absolute or only a path): no scheme, host, query or fragment, nor trailing slashes. */
export function urlPathOf(url: string): string {
  const scheme = url.indexOf('://');
  const pathStart = scheme < 0 ? 0 : url.indexOf('/', scheme + 3);
  if (pathStart < 0) return '';
  let end = url.length;
  for (const stop of ['?', '#']) {
    const at = url.indexOf(stop, pathStart);
    if (at >= 0 && at < end) end = at;
  }
  while (end > pathStart && url.charCodeAt(end - 1) === 0x2f /* / */) end--;
  const path = url.slice(pathStart, end);
  // `:streamGenerateContent` may come percent-encoded from clients that escape every colon.
  return path.includes('%') ? path.replace(/%3a/gi, ':') : path;
}

/** A header value without its parameters, trimmed and in lower case. */
function bareValue(value: string): string {
  const semicolon = value.indexOf(';');
  return (semicolon < 0 ? value : value.slice(0, semicolon)).trim().toLowerCase();
}

/**
 * The first dialect, in registry order, that the exchange's evidence names: a matching response
 * header wins over a matching URL path (a header is the server's own word about the stream,
 * a path only the usual place of an API). Undefined when nothing matches.
 */
export function matchEvidence<M extends { readonly evidence?: DialectEvidence }>(
  modules: readonly M[],
  hints: ExchangeHints,
): EvidenceMatch<M> | undefined {
  const headers = hints.headers ?? [];
  for (const module of modules) {
    for (const expected of module.evidence?.headers ?? []) {
      const found = headers.find(([name]) => name.toLowerCase() === expected.name);
      if (!found) continue;
      if (expected.value === undefined || bareValue(found[1]) === expected.value.toLowerCase())
        // What the dialect declared is shown, not the server's text: a header value can be any length.
        return {
          module,
          by: 'header',
          what: expected.value === undefined ? expected.name : `${expected.name}: ${expected.value}`,
        };
    }
  }
  const path = hints.url === undefined ? '' : urlPathOf(hints.url);
  if (path === '') return undefined;
  for (const module of modules) {
    const ending = module.evidence?.urlPaths?.find((p) => path.endsWith(p));
    if (ending !== undefined) return { module, by: 'url', what: ending };
  }
  return undefined;
}
