import { FilterError } from './errors';
import type { FieldSpec } from './fields';
import type { FieldLookup } from './parser';
import { tokenize, type Token } from './tokens';

export interface CompletionItem {
  /** What the list shows. */
  readonly label: string;
  /** What replaces [from, to) when chosen. */
  readonly insert: string;
  readonly detail?: string;
}

export interface Completion {
  readonly from: number;
  readonly to: number;
  readonly items: readonly CompletionItem[];
}

export interface CompletionContext {
  /** Values seen in the session for a field (types, agent names), offered with the fixed ones. */
  values?(field: string): readonly string[];
  /** One line about a field, shown beside its name. */
  describe?(field: string): string | undefined;
}

const MAX_ITEMS = 50;
const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='];

/**
 * Suggestions for the text before the cursor of a filter: field names where a condition
 * starts, operators after a field, the field's values after an operator (fixed ones and those
 * the session has), `&&` / `||` after a complete condition. Works on unfinished text: an open
 * string is a value being typed.
 */
export function completeFilter(
  source: string,
  cursor: number,
  fields: FieldLookup & { field(name: string): FieldSpec | undefined },
  context: CompletionContext = {},
): Completion | null {
  const before = source.slice(0, cursor);
  let tokens: Token[];
  let partial: { text: string; at: number; quoted: boolean } | null = null;
  try {
    tokens = tokenize(before).slice(0, -1);
  } catch (error) {
    if (!(error instanceof FilterError) || !error.message.startsWith('String is not closed')) return null;
    const head = safeTokens(before.slice(0, error.at));
    if (!head) return null;
    tokens = head;
    partial = { text: before.slice(error.at + 1), at: error.at, quoted: true };
  }
  // The word being typed (no space after it yet) is the partial; completion replaces it.
  const last = tokens.at(-1);
  if (!partial && last && !/\s$/.test(before) && (last.kind === 'ident' || last.kind === 'number')) {
    tokens = tokens.slice(0, -1);
    partial = { text: last.text, at: last.at, quoted: false };
  }
  const from = partial?.at ?? cursor;
  // A string being typed ends at its closing quote, if the text after the cursor has one.
  const to = partial?.quoted && source[cursor] === source[from] ? cursor + 1 : cursor;
  const prefix = (partial?.text ?? '').toLowerCase();
  const matching = (items: CompletionItem[]): Completion | null => {
    const found = items
      .filter(
        (item) =>
          item.label.toLowerCase().startsWith(prefix) && item.insert !== (partial?.quoted ? undefined : partial?.text),
      )
      .slice(0, MAX_ITEMS);
    return found.length > 0 ? { from, to, items: found } : null;
  };

  const previous = tokens.at(-1);
  const expectsCondition = !previous || (previous.kind === 'op' && ['&&', '||', '!', '('].includes(previous.text));
  if (expectsCondition) {
    if (partial?.quoted) return null;
    return matching(fields.names().map((name) => ({ label: name, insert: name, ...detailOf(name, context) })));
  }
  const field = fieldBeforeValue(tokens);
  if (field) {
    const spec = fields.field(field);
    if (!spec) return null;
    const values = new Set([
      ...(spec.type === 'boolean' ? ['true', 'false'] : []),
      ...(spec.values ?? []),
      ...(context.values?.(field) ?? []),
    ]);
    return matching(
      [...values].map((value) => ({ label: value, insert: spec.type === 'boolean' ? value : JSON.stringify(value) })),
    );
  }
  if (previous.kind === 'ident' && fields.field(previous.text)) {
    const spec = fields.field(previous.text)!;
    const ops =
      spec.type === 'boolean'
        ? ['&&', '||', '==', '!=']
        : spec.type === 'string' && !spec.order
          ? ['==', '!=', 'contains', 'matches', 'in']
          : [...COMPARISONS, 'in'];
    return matching(ops.map((op) => ({ label: op, insert: op === 'in' ? 'in [' : op })));
  }
  if (partial?.quoted) return null;
  return matching(['&&', '||'].map((op) => ({ label: op, insert: op })));
}

function safeTokens(text: string): Token[] | null {
  try {
    return tokenize(text).slice(0, -1);
  } catch {
    return null;
  }
}

/** The field whose value comes next: `field OP ▮` or `field in [ …, ▮`. */
function fieldBeforeValue(tokens: readonly Token[]): string | undefined {
  const previous = tokens.at(-1);
  if (!previous) return undefined;
  const isOp = (t: Token | undefined, ...texts: string[]): boolean =>
    t !== undefined && (t.kind === 'op' || t.kind === 'ident') && texts.includes(t.text);
  if (
    isOp(previous, ...COMPARISONS, 'contains', 'matches') &&
    previous.kind === (COMPARISONS.includes(previous.text) ? 'op' : 'ident')
  ) {
    const field = tokens.at(-2);
    return field?.kind === 'ident' ? field.text : undefined;
  }
  if (isOp(previous, '[', ',')) {
    // Walk back over the list to `in` and its field.
    for (let i = tokens.length - 1; i >= 1; i--) {
      const t = tokens[i]!;
      if (t.kind === 'op' && t.text === ']') return undefined;
      if (t.kind === 'op' && t.text === '[')
        return tokens[i - 1]?.kind === 'ident' && tokens[i - 1]!.text === 'in' && tokens[i - 2]?.kind === 'ident'
          ? tokens[i - 2]!.text
          : undefined;
    }
  }
  return undefined;
}

function detailOf(name: string, context: CompletionContext): { detail?: string } {
  const detail = context.describe?.(name);
  return detail === undefined ? {} : { detail };
}
