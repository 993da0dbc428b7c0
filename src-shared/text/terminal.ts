/**
 * Text from a stream or a server, made safe to print on a terminal. A stream controls agent
 * ids, models, error messages and payloads; printed raw, an ESC or C1 control in them could
 * clear the screen (ESC [ 2 J), retitle the window, write the clipboard (OSC 52) or hide text
 * behind a bidi override. Every such character is written as a visible escape instead:
 * C0 and C1 controls and DEL as `\x1b`, bidi controls, line separators and lone surrogates as
 * `\u202e`. Line feeds and tabs stay (`multiline: false` escapes them too, for one-line fields).
 * In `json` style every escape is a JSON `\uXXXX`, so printed JSON stays valid and means the
 * same.
 */

/* eslint-disable no-control-regex -- control characters are exactly what this finds */
const UNSAFE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */
/* eslint-disable no-control-regex -- the same set, with line feed and tab */
const UNSAFE_ONE_LINE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */

export interface TerminalSafeOptions {
  /** Escape for a JSON document (`\u001b`) instead of for reading (`\x1b`). */
  json?: boolean;
  /** Keep line feeds and tabs (default true). */
  multiline?: boolean;
}

const hex = (code: number, digits: number): string => code.toString(16).padStart(digits, '0');

export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  const pattern = options.multiline === false ? UNSAFE_ONE_LINE : UNSAFE;
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  const json = options.json === true;
  return text.replace(pattern, (char) => {
    const code = char.charCodeAt(0);
    return !json && code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  });
}
