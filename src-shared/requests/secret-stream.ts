import { concatBytes } from '../bytes/held-bytes';
import { encodeUtf8 } from '../text/utf8';
import { secretForms } from './variables';

/**
 * Masks environment secret values in a byte stream as it arrives (docs/requests.md,
 * "Secrets"): a server that echoes a token back must not put it into the session, its
 * recording, its spool file or any export. Each occurrence (as written, percent-encoded or
 * JSON-escaped) is overwritten with a mask of the **same byte length**, `{{name}}` padded with
 * `*` (or only `*` where the name does not fit), so every byte offset, chunk size and frame
 * position stays what was received; only the secret's bytes change.
 *
 * A secret split across two chunks is still masked: the end of a chunk that could be the
 * start of a secret is held back and goes on with the next chunk (or when the stream ends).
 * Only those few bytes wait, and only while they could still begin a secret.
 */
export interface StreamMasker {
  /** The chunk with every secret in it masked, less the held tail (maybe empty). */
  push(bytes: Uint8Array): Uint8Array;
  /** The held tail when the stream ends: it began no secret. */
  flush(): Uint8Array;
}

interface Form {
  bytes: Uint8Array;
  mask: Uint8Array;
}

const FILL = 0x2a; // '*'

function maskFor(name: string, length: number): Uint8Array {
  const label = encodeUtf8(`{{${name}}}`);
  const mask = new Uint8Array(length).fill(FILL);
  if (label.length <= length) mask.set(label);
  return mask;
}

function startsWith(buf: Uint8Array, at: number, form: Uint8Array, length: number): boolean {
  for (let k = 0; k < length; k++) if (buf[at + k] !== form[k]) return false;
  return true;
}

/** A masker for these secrets, or null when there is nothing to mask. */
export function createStreamMasker(secrets: readonly { name: string; value: string }[]): StreamMasker | null {
  const forms: Form[] = [];
  for (const { name, value } of secrets) {
    if (value === '') continue;
    for (const form of secretForms(value)) {
      const bytes = encodeUtf8(form);
      forms.push({ bytes, mask: maskFor(name, bytes.length) });
    }
  }
  if (forms.length === 0) return null;
  // Longer forms first, so a secret that contains another is masked whole.
  forms.sort((a, b) => b.bytes.length - a.bytes.length);
  const firstBytes = new Set(forms.map((f) => f.bytes[0] as number));
  const longest = (forms[0] as Form).bytes.length;
  let held: Uint8Array = new Uint8Array(0);

  /** Where the tail that could still begin a secret starts (buf.length: none), at or after `from`. */
  const holdStart = (buf: Uint8Array, from: number): number => {
    for (let p = Math.max(from, buf.length - longest + 1); p < buf.length; p++) {
      if (!firstBytes.has(buf[p] as number)) continue;
      if (forms.some((f) => f.bytes.length > buf.length - p && startsWith(buf, p, f.bytes, buf.length - p))) return p;
    }
    return buf.length;
  };

  return {
    push(chunk) {
      const buf = held.length === 0 ? chunk : concatBytes([held, chunk]);
      let out: Uint8Array | null = null;
      let maskedTo = 0;
      for (let i = 0; i < buf.length; i++) {
        if (!firstBytes.has(buf[i] as number)) continue;
        const form = forms.find((f) => i + f.bytes.length <= buf.length && startsWith(buf, i, f.bytes, f.bytes.length));
        if (!form) continue;
        out ??= buf.slice();
        out.set(form.mask, i);
        i += form.bytes.length - 1;
        maskedTo = i + 1;
      }
      const result = out ?? buf;
      const hold = holdStart(result, maskedTo);
      held = result.slice(hold);
      return hold === result.length ? result : result.subarray(0, hold);
    },
    flush() {
      const rest = held;
      held = new Uint8Array(0);
      return rest;
    },
  };
}
