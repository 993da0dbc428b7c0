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
      const text = entry.parts.join('');
      if (announcesJsonFirst(text)) return 'json';
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch {
        return undefined; // a payload that does not parse is reported by reconstruction
      }
      const format = isJsonObject(payload) ? payload['format'] : undefined;
      return typeof format === 'string' ? format : undefined;
    },
  };
}

/** `format` as the upstream formatter writes it, first and "json". */
const JSON_FORMAT_FIRST = /^\{\s*"format"\s*:\s*"json"\s*[,}]/;

/**
 * Whether the payload announces json without parsing it: the upstream formatter writes
 * `format` first, and a meta_init payload can be kilobytes (the query, the tools), parsed once
 * more by reconstruction. When `format` comes first as "json" and no other key could be named
 * format (no other `"format"`, no `\u` escape that could spell one: JSON.parse keeps the last
 * of duplicate keys), the payload announces json if it parses at all; and one that does not
 * parse announces nothing, which is reported no differently (reconstruction reports it broken).
 */
function announcesJsonFirst(text: string): boolean {
  const match = JSON_FORMAT_FIRST.exec(text);
  return match !== null && text.indexOf('"format"', match[0].length) === -1 && !text.includes('\\u');
}
