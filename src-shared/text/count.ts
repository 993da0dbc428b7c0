/** "1 envelope", "2 envelopes": a count with its noun, for user-facing text. */
export function countOf(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${Math.trunc(n) === 1 ? singular : plural}`;
}
