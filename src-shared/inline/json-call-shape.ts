/**
 * What makes a JSON object a tool call (docs/inline.md, "JSON tool calls"): a string `name`
 * and an arguments object under one of ARGUMENT_KEYS, and no keys but CALL_KEYS.
 */
export const ARGUMENT_KEYS = ['arguments', 'args', 'parameters'];
export const CALL_KEYS = new Set(['name', 'id', 'type', ...ARGUMENT_KEYS]);

/** A call's parameters: its arguments object (or a JSON string holding one), values as text. */
export function argumentsOf(raw: string): Record<string, string> | string {
  let call: unknown;
  try {
    call = JSON.parse(raw);
  } catch (error) {
    return `it is not valid JSON (${(error as Error).message})`;
  }
  const fields = call as Record<string, unknown>;
  const key = ARGUMENT_KEYS.find((k) => k in fields);
  let args = key === undefined ? undefined : fields[key];
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args);
    } catch {
      return `its "${key}" string is not JSON`;
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return `it has no "arguments" object`;
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(args))
    params[name] = typeof value === 'string' ? value : JSON.stringify(value);
  return params;
}
