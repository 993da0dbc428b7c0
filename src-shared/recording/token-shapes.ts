/**
 * Credentials recognisable by their shape alone, wherever they stand: a key pasted into a
 * prompt, a header whose name says nothing, a path segment. Each pattern is a vendor's
 * documented prefix with a long random tail (the prefixes secret scanners such as gitleaks
 * use), so ordinary text does not match; a value that only looks random is left alone.
 */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\bsk-(?:proj-|ant-(?:api|admin)\d*-)?[A-Za-z0-9_-]{20,}/g, // OpenAI, Anthropic
  /\bgithub_pat_[A-Za-z0-9_]{22,}|\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}/g, // Google API keys
  /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g, // Stripe
  /\b(?:hf|gsk)_[A-Za-z0-9]{30,}|\bxai-[A-Za-z0-9]{40,}/g, // Hugging Face, Groq, xAI
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, // JWTs (header and payload are base64url JSON)
];

/** `text` with every credential of a known shape replaced by `replacement`; unchanged when there is none. */
export function redactTokenShapes(text: string, replacement: string): string {
  let out = text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, replacement);
  return out;
}
