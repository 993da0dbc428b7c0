import { mapJson } from '../json/tree';
import type { AgentPair } from './types';

/**
 * Two runs of one scenario, as opposed to one run in two formats. The server gives every run
 * new agent uuids, and they are written into block contents: meta_init `agent_uuid` and
 * `parent_agent_uuid`, the spawn tool result ("Agent UUID: …"), the history in meta_final.
 * The API signs every thinking block anew, and the history repeats the signature. Neither
 * says anything about what the agents did, so once agents are paired the diff reads the left
 * side's uuids as their right partners' and leaves thinking signatures out of the history.
 */
export interface RunPairing {
  /** Left agent uuid → the right uuid it is paired with (pairs whose uuids differ). */
  readonly uuids: ReadonlyMap<string, string>;
  /** Every left uuid of `uuids` replaced by its partner; the same string when none occurs. */
  substitute(text: string): string;
}

/**
 * The pairing of two different runs, or null when the sides are one run (an agent uuid is on
 * both sides: the same run in two formats) or no paired agents have different uuids. The
 * empty uuid (items without an agent id) identifies no run and is never substituted.
 */
export function runPairing(agents: readonly AgentPair[]): RunPairing | null {
  if (agents.some((p) => p.by === 'uuid' && p.left !== '')) return null;
  const uuids = new Map<string, string>();
  for (const { left, right } of agents) {
    if (left !== undefined && right !== undefined && left !== '' && right !== '' && left !== right)
      uuids.set(left, right);
  }
  if (uuids.size === 0) return null;
  // Longest first, so a uuid that contains another is replaced whole.
  const alternatives = [...uuids.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(alternatives.join('|'), 'g');
  return {
    uuids,
    substitute: (text) => text.replace(pattern, (uuid) => uuids.get(uuid) ?? uuid),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A JSON value with `rewrite` applied to every string in it, object keys included. */
export function rewriteStrings(value: unknown, rewrite: (text: string) => string): unknown {
  return mapJson(value, { key: rewrite, leaf: (item) => (typeof item === 'string' ? rewrite(item) : item) });
}

/**
 * A JSON value without the `signature` of its thinking content blocks (`{"type": "thinking",
 * "thinking": …, "signature": …}`, as message histories hold them), and the signatures it
 * dropped, in document order.
 */
export function withoutThinkingSignatures(value: unknown): { value: unknown; signatures: unknown[] } {
  const signatures: unknown[] = [];
  const copy = mapJson(value, {
    key(key, parent) {
      if (key !== 'signature' || parent['type'] !== 'thinking') return key;
      signatures.push(parent[key]);
      return undefined;
    },
  });
  return { value: copy, signatures };
}
