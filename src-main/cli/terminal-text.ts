/**
 * Text from a stream made safe for a terminal: C0 and C1 control characters (ESC, CSI, BEL,
 * CR…), DEL, and bidirectional overrides become visible `\u{…}` escapes, so nothing a stream
 * carries can move the cursor, recolour the terminal or reorder what the user reads.
 * Every stream-derived string the CLI prints as text goes through this one function.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

export function terminalText(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16).padStart(4, '0')}}`);
}
