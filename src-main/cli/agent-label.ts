const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An agent id where a line or a column names it: a UUID (the upstream agents' ids) by its
 * first 8 hex digits, which tell a session's agents apart as a short commit hash does; any
 * other id whole, since a provider's ids share their start (`chatcmpl-…`, `msg_…`, `run-…`) and
 * a prefix of them would name every agent alike; no id as `(no agent id)`, as the Agents list
 * says it.
 */
export function agentLabel(id: string): string {
  if (id === '') return NO_AGENT_ID;
  return UUID.test(id) ? id.slice(0, 8) : id;
}

export const NO_AGENT_ID = '(no agent id)';
