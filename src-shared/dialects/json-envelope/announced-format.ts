import { isJsonObject } from '../../json/values';

/**
 * meta_init payloads larger than this are not reassembled for the format check (the
 * reconstructor still keeps the whole payload); a real one is a few kilobytes plus history.
 */
const MAX_META_INIT_CHARS = 16 * 1024 * 1024;

interface Pending {
  parts: string[];
  chars: number;
}

export interface AnnouncedFormatCheck {
  /**
   * Feed one meta_init envelope. Returns the format its payload announces once the final
   * chunk arrived and the reassembled payload parses with a string `format`; else undefined.
   */
  push(agent: string, delta: string, final: boolean): string | undefined;
}

/**
 * Reassembles each agent's meta_init payload (it may be chunked over several envelopes, so
 * no single delta parses) and reads the `format` it announces.
 */
export function createAnnouncedFormatCheck(): AnnouncedFormatCheck {
  const pending = new Map<string, Pending>();
  return {
    push(agent, delta, final) {
      let entry = pending.get(agent);
      if (!entry) {
        entry = { parts: [], chars: 0 };
        pending.set(agent, entry);
      }
      if (entry.chars <= MAX_META_INIT_CHARS) {
        entry.parts.push(delta);
        entry.chars += delta.length;
      }
      if (!final) return undefined;
      pending.delete(agent);
      if (entry.chars > MAX_META_INIT_CHARS) return undefined;
      let payload: unknown;
      try {
        payload = JSON.parse(entry.parts.join(''));
      } catch {
        return undefined; // a payload that does not parse is reported by reconstruction
      }
      const format = isJsonObject(payload) ? payload['format'] : undefined;
      return typeof format === 'string' ? format : undefined;
    },
  };
}
