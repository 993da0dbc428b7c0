/**
 * The parameters of a tool call whose parameter tag is still open when the text ends (a model
 * that stopped early: `<search><query>login<path>src`). While the text streams a value runs to
 * its own closing tag; once the text has ended there is none to wait for, so each parameter
 * runs to the next parameter tag, its own closing tag or the tool's closing tag, or the end of
 * the text (docs/inline.md, "Unclosed tags"). One pass over the rest of the text, no recursion.
 */

/** An opening or closing tag, with its attributes (for `<arg name="…">`). */
const TAG = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s[^<>]*)?)>/g;
const NAME_ATTRIBUTE = /\bname\s*=\s*(?:"([^"]*)"|'([^']*)')/;

export interface UnclosedParamsForm {
  /** The tool's own tag (`search`, or `tool` for the `<tool name>` form): its closing tag ends every parameter. */
  toolTag: string;
  /** True for the `<tool name>` form, whose parameters are `<arg name="…">` tags. */
  argForm: boolean;
}

/**
 * `rest`: the raw text after the open parameter's tag. Returns each parameter's raw value (not
 * decoded), the open one first under `first`.
 */
export function readUnclosedParams(first: string, rest: string, form: UnclosedParamsForm): [string, string][] {
  const params: [string, string][] = [];
  let name: string | null = first;
  let from = 0;
  for (const match of rest.matchAll(TAG)) {
    const [raw, slash, tag, attributes] = match;
    const at = match.index;
    const closesTool = slash === '/' && tag === form.toolTag;
    const opensParam = slash === '' && (!form.argForm || tag === 'arg');
    const closesParam = slash === '/' && name !== null && tag === (form.argForm ? 'arg' : name);
    if (name !== null && (closesTool || opensParam || closesParam)) {
      params.push([name, rest.slice(from, at)]);
      name = null;
    }
    if (closesTool) return params;
    if (opensParam) {
      const named = form.argForm ? NAME_ATTRIBUTE.exec(attributes ?? '') : null;
      name = form.argForm ? (named?.[1] ?? named?.[2] ?? '') : (tag ?? '');
      from = at + raw.length;
    }
  }
  if (name !== null) params.push([name, rest.slice(from)]);
  return params;
}
