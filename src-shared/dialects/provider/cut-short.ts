/**
 * What cut a message's output short, by the stop or finish reason a dialect's table names
 * (`max_tokens`: "the max_tokens limit"); undefined for a reason that ends the output well. A
 * message cut short is reported (`provider.response-incomplete`) and its stream ends
 * `incomplete` (pipeline/end-status.ts). Own keys only: a reason from the wire may be any string.
 */
export function cutShortBy(table: Readonly<Record<string, string>>, reason: string | undefined): string | undefined {
  return reason !== undefined && Object.hasOwn(table, reason) ? table[reason] : undefined;
}
