import { useRef, useState } from 'react';
import { caretLines } from '../../../src-shared/filter/errors';
import { completeFilter, type Completion, type CompletionContext } from '../../../src-shared/filter/complete';
import { ENVELOPE_FIELDS } from '../../../src-shared/filter/envelope-fields';
import { TEST_IDS } from '../../testids';
import './filter-box.css';

export interface FilterError {
  readonly message: string;
  readonly at: number;
  readonly length: number;
}

/**
 * The filter box: a one-line expression editor (docs/filters.md) with completion of field
 * names, operators and values, and the parse error shown under it with a caret at the
 * character. Arrow keys move into the list and in it; Tab takes the suggestion shown, Enter
 * takes it only once the user moved into the list, and otherwise applies the expression (a
 * list that opened by itself after typing or pasting never eats the Enter that was meant to
 * apply). Escape closes the list and nothing more: the expression stays.
 */
export function FilterExpressionInput({
  value,
  onChange,
  onApply,
  error,
  context,
  inputRef,
}: {
  value: string;
  onChange: (text: string) => void;
  /** Enter (unless a suggestion was chosen with the arrow keys): apply now instead of after the typing pause. */
  onApply: (text: string) => void;
  error: FilterError | null;
  context: CompletionContext;
  inputRef: React.RefObject<HTMLInputElement | null>;
}) {
  const [completion, setCompletion] = useState<Completion | null>(null);
  const [active, setActive] = useState(0);
  /** The user moved into the list with the arrow keys: Enter takes the suggestion then. */
  const [navigated, setNavigated] = useState(false);
  const list = useRef<HTMLUListElement>(null);

  const suggest = (text: string, cursor: number | null): void => {
    const next = cursor === null ? null : completeFilter(text, cursor, ENVELOPE_FIELDS, context);
    setCompletion(next);
    setActive(0);
    setNavigated(false);
  };

  const accept = (index: number): void => {
    const item = completion?.items[index];
    const input = inputRef.current;
    if (!completion || !item || !input) return;
    const rest = value.slice(completion.to);
    const spacer = item.insert.endsWith('[') || rest.startsWith(' ') ? '' : ' ';
    const text = `${value.slice(0, completion.from)}${item.insert}${spacer}${rest}`;
    const cursor = completion.from + item.insert.length + spacer.length;
    onChange(text);
    setCompletion(null);
    requestAnimationFrame(() => {
      input.setSelectionRange(cursor, cursor);
      suggest(text, cursor);
    });
  };

  const [shown, caret] = error ? caretLines(value, error) : ['', ''];

  return (
    <div className="filter-box">
      <input
        ref={inputRef}
        className={`input filter-expression${error ? ' filter-expression-invalid' : ''}`}
        type="search"
        placeholder='Filter: type == "tool_call" && agent == "sub 1"   ( / )'
        spellCheck={false}
        autoComplete="off"
        aria-label="Filter expression"
        aria-invalid={error !== null}
        aria-autocomplete="list"
        aria-expanded={completion !== null}
        data-testid={TEST_IDS.filterText}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          suggest(e.target.value, e.target.selectionStart);
        }}
        onFocus={(e) => suggest(e.target.value, e.target.selectionStart)}
        onClick={(e) => suggest(e.currentTarget.value, e.currentTarget.selectionStart)}
        onBlur={() => setCompletion(null)}
        onKeyDown={(e) => {
          const open = completion !== null && completion.items.length > 0;
          if (open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault();
            const count = completion.items.length;
            const next = (active + (e.key === 'ArrowDown' ? 1 : count - 1)) % count;
            setActive(next);
            setNavigated(true);
            list.current?.children[next]?.scrollIntoView({ block: 'nearest' });
          } else if (open && (e.key === 'Tab' || (e.key === 'Enter' && navigated))) {
            e.preventDefault();
            accept(active);
          } else if (e.key === 'Enter') {
            e.preventDefault();
            setCompletion(null);
            onApply(value);
          } else if (e.key === 'Escape') {
            // A search input empties itself on Escape; here Escape only closes the list.
            e.preventDefault();
            if (open) e.stopPropagation();
            setCompletion(null);
          }
        }}
      />
      {completion && completion.items.length > 0 && (
        <ul className="filter-completions" role="listbox" ref={list} data-testid={TEST_IDS.filterCompletions}>
          {completion.items.map((item, i) => (
            <li
              key={item.label}
              role="option"
              aria-selected={i === active && navigated}
              className={i === active ? `filter-completion-active${navigated ? ' filter-completion-chosen' : ''}` : ''}
              // mousedown, not click: the input keeps its focus.
              onMouseDown={(e) => {
                e.preventDefault();
                accept(i);
              }}
            >
              <span className="filter-completion-label">{item.label}</span>
              {item.detail && <span className="dim">{item.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {error && value.trim() !== '' && !completion && (
        <div className="filter-error" role="alert" data-testid={TEST_IDS.filterError} data-at={error.at}>
          <div className="filter-error-message">{error.message}</div>
          <pre className="filter-error-source">
            {shown}
            {'\n'}
            <span className="filter-error-caret">{caret}</span>
          </pre>
        </div>
      )}
    </div>
  );
}
