import { decodeHTMLStrict } from 'entities';

/**
 * Character references in attribute values. Upstream escapes attributes with Python's
 * `html.escape(..., quote=True)` (`&amp;` `&lt;` `&gt;` `&quot;` `&#x27;`); every HTML named
 * reference and every numeric one is decoded. A reference that is malformed (no `;`, a bare
 * `&`), unknown, or names no Unicode scalar value is kept verbatim and reported, so the user
 * sees exactly what was sent.
 */
export interface EntityProblem {
  /** The text kept verbatim, e.g. `&bogus;` or `&`. */
  text: string;
  /** Offset in the raw value. */
  index: number;
  reason: string;
}

export interface DecodedValue {
  value: string;
  problems: EntityProblem[];
}

/** One reference at a position: `&name;`, `&#123;` or `&#x1F600;`. Bounded, so matching is linear. */
const REFERENCE = /&(?:#([0-9]{1,8})|#[xX]([0-9a-fA-F]{1,8})|([A-Za-z][A-Za-z0-9]{0,31}));/y;

/**
 * The references Python's html.escape writes, decoded without the general HTML tables: a
 * meta_init or meta_final attribute holds thousands of them.
 */
const ESCAPE_REFERENCES: readonly (readonly [string, string])[] = [
  ['&quot;', '"'],
  ['&amp;', '&'],
  ['&lt;', '<'],
  ['&gt;', '>'],
  ['&#x27;', "'"],
];

function escapeReferenceAt(raw: string, amp: number): readonly [string, string] | undefined {
  for (const reference of ESCAPE_REFERENCES) if (raw.startsWith(reference[0], amp)) return reference;
  return undefined;
}

export function decodeAttributeValue(raw: string): DecodedValue {
  let amp = raw.indexOf('&');
  if (amp === -1) return { value: raw, problems: [] };
  const problems: EntityProblem[] = [];
  let out = '';
  let from = 0;
  while (amp !== -1) {
    out += raw.slice(from, amp);
    const escape = escapeReferenceAt(raw, amp);
    if (escape) {
      out += escape[1];
      from = amp + escape[0].length;
      amp = raw.indexOf('&', from);
      continue;
    }
    REFERENCE.lastIndex = amp;
    const match = REFERENCE.exec(raw);
    if (!match) {
      problems.push({
        text: '&',
        index: amp,
        reason: 'an "&" that starts no complete reference (a reference needs a name or number and a closing ";")',
      });
      out += '&';
      from = amp + 1;
    } else {
      const text = match[0];
      const decoded = decodeReference(text, match[1], match[2]);
      if (typeof decoded === 'string') {
        out += decoded;
      } else {
        problems.push({ text, index: amp, reason: decoded.reason });
        out += text;
      }
      from = amp + text.length;
    }
    amp = raw.indexOf('&', from);
  }
  return { value: out + raw.slice(from), problems };
}

function decodeReference(
  text: string,
  decimal: string | undefined,
  hex: string | undefined,
): string | { reason: string } {
  if (decimal !== undefined || hex !== undefined) {
    const codePoint = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? '', 16);
    if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      return {
        reason: `numeric reference to U+${codePoint.toString(16).toUpperCase()}, which is not a Unicode scalar value`,
      };
    }
    // decodeHTMLStrict applies the HTML table for C1 references (&#128; is "€"), as Python's html.unescape does.
    return decodeHTMLStrict(text);
  }
  const decoded = decodeHTMLStrict(text);
  return decoded === text ? { reason: 'unknown named reference' } : decoded;
}

/** Decode, ignoring problems: for markup the model wrote inside text, which nobody escaped. */
export function decodeAttributeValueLeniently(raw: string): string {
  return decodeAttributeValue(raw).value;
}

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};

/** Python's `html.escape(text, quote=True)`: how upstream writes attribute values. */
export function htmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}
