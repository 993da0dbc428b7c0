/**
 * A syntax or type error in a filter or assertion, at a character of its text. `at` and
 * `length` are UTF-16 offsets into the text as given, for a caret under the culprit.
 */
export class FilterError extends Error {
  override readonly name = 'FilterError';
  constructor(
    message: string,
    readonly at: number,
    readonly length = 1,
  ) {
    super(message);
  }
}

/**
 * The expression on one line and a caret line under the culprit, for a terminal or a
 * monospace box. Control characters become `·` one for one, so the caret stays aligned and
 * nothing in the text can move a terminal's cursor.
 */
export function caretLines(source: string, error: Pick<FilterError, 'at' | 'length'>): [string, string] {
  // eslint-disable-next-line no-control-regex
  const shown = source.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '·');
  const at = Math.max(0, Math.min(error.at, shown.length));
  const width = Math.max(1, Math.min(error.length, shown.length - at));
  return [shown, `${' '.repeat(at)}${'^'.repeat(width)}`];
}

/** `message`, then the caret display: what the CLI prints for a bad expression. */
export function describeFilterError(source: string, error: FilterError): string {
  const [line, caret] = caretLines(source, error);
  return `${error.message} (at character ${error.at + 1})\n  ${line}\n  ${caret}`;
}
