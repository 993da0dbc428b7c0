import { isJsonObject } from '../../json/values';

/**
 * What blocked a candidate or a prompt, from its `safetyRatings`: the categories rated
 * `blocked: true`, each with the probability (and Vertex AI's severity) the API gave, as words
 * of a finding: `blocked for HARM_CATEGORY_DANGEROUS_CONTENT: probability HIGH`. Empty when no
 * rating says it blocked (a `finishMessage`, a block reason alone).
 */
export function blockedBy(ratings: unknown): string {
  if (!Array.isArray(ratings)) return '';
  const blocked = ratings.filter((rating) => isJsonObject(rating) && rating['blocked'] === true);
  if (blocked.length === 0) return '';
  const named = blocked.map((rating: Record<string, unknown>) => {
    const category = typeof rating['category'] === 'string' ? rating['category'] : 'a category';
    const levels = (['probability', 'severity'] as const)
      .filter((field) => typeof rating[field] === 'string')
      .map((field) => `${field} ${String(rating[field])}`);
    return levels.length > 0 ? `${category}: ${levels.join(', ')}` : category;
  });
  return `blocked for ${named.join('; ')}`;
}
