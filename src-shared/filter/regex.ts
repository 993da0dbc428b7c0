import { RE2JS } from 're2js';

/** Longer patterns are refused: a filter's regex is typed by hand. */
export const MAX_PATTERN_LENGTH = 1000;

export interface Regex {
  test(text: string): boolean;
}

/**
 * `matches` runs on RE2JS, a port of RE2: matching takes time linear in the input whatever
 * the pattern, so `(a+)+b` over a megabyte of delta cannot hang the timeline or a CI job.
 * RE2 has no backreferences or lookaround (patterns that need backtracking); using them is a
 * syntax error at the pattern. Inline flags work: `(?i)error` ignores case. A pattern
 * matches anywhere in the value unless anchored with ^ and $.
 */
export function compileRegex(pattern: string): Regex {
  if (pattern.length > MAX_PATTERN_LENGTH) throw new Error(`pattern longer than ${MAX_PATTERN_LENGTH} characters`);
  const compiled = RE2JS.compile(pattern);
  return { test: (text) => compiled.matcher(text).find() };
}
