/**
 * The extras of a provider's citation envelope (Anthropic's `citations_delta`, a Responses
 * `annotation`, a Chat Completions `delta.annotations` entry): its type as `citation_type`
 * (`unknown` when it has none) and every other field it has that is not null, in wire order, so
 * that no location is lost. A "__proto__" key from the wire stays a plain field: assignment
 * would set the prototype. `skip` names fields the envelope carries elsewhere (the cited text).
 */
export function citationExtras(
  type: unknown,
  fields: Readonly<Record<string, unknown>>,
  skip: ReadonlySet<string> = NONE,
): Record<string, unknown> {
  const extras: Record<string, unknown> = { citation_type: typeof type === 'string' ? type : 'unknown' };
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'type' || value === null || value === undefined || skip.has(key)) continue;
    Object.defineProperty(extras, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return extras;
}

const NONE: ReadonlySet<string> = new Set();
