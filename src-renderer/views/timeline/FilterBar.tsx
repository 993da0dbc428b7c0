import { useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { ENVELOPE_FIELDS } from '../../../src-shared/filter/envelope-fields';
import { uiCommands } from '../../app/ui-commands';
import { useStableHandler } from '../../app/use-stable-handler';
import { Checkbox } from '../../components/Checkbox';
import { useMenuDismiss } from '../../components/use-menu-dismiss';
import type { AgentLabel } from '../../model/agents';
import { applyChip, chipsOf, conjuncts, type ChipChange } from '../../model/filter-chips';
import { formatCount, formatCountOf } from '../../model/format';
import { EMPTY_FILTER, parseTimelineFilter } from '../../model/row-filter';
import type { Severity } from '../../../src-shared/diagnostics/severity';
import type { TimelineModel, TimelineSnapshot } from '../../model/timeline';
import { TEST_IDS } from '../../testids';
import { FilterExpressionInput } from './FilterExpressionInput';

const TEXT_DEBOUNCE_MS = 250;

/**
 * The timeline's filter: one expression (docs/filters.md) in the box, and pickers for agents,
 * types, final and findings that edit their own condition of it, so each pick shows as text.
 */
export function FilterBar({
  timeline,
  snapshot,
  agents,
}: {
  timeline: TimelineModel;
  snapshot: TimelineSnapshot;
  agents: readonly AgentLabel[];
}) {
  const filter = snapshot.filter;
  const [text, setText] = useState(filter.expression);
  const input = useRef<HTMLInputElement>(null);
  const apply = (expression: string): void => timeline.setFilter({ expression });

  // Keep the field in step when the filter is changed from elsewhere (cleared, a pick).
  const [seenText, setSeenText] = useState(filter.expression);
  if (seenText !== filter.expression) {
    setSeenText(filter.expression);
    setText(filter.expression);
  }

  useEffect(() => {
    if (text === timeline.getFilter().expression) return;
    const timer = window.setTimeout(() => timeline.setFilter({ expression: text }), TEXT_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, timeline]);

  useEffect(
    () =>
      uiCommands.event((command) => {
        if (command === 'focus-filter') {
          input.current?.focus();
          input.current?.select();
        }
      }),
    [],
  );

  const names = useMemo(() => new Map(agents.map((a) => [a.uuid, a.name])), [agents]);
  useEffect(() => timeline.setAgentNames(names), [timeline, names]);

  const types = [...timeline.index.types].sort();
  const context = useMemo(
    () => ({
      values: (field: string) => (field === 'agent' ? agents.map((a) => a.name) : field === 'type' ? types : []),
      describe: (field: string) => ENVELOPE_FIELDS.field(field)?.description,
    }),
    // types: the index's list grows in place; its length says when.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [agents, types.length],
  );
  // The pickers show the expression in the box as typed, even before it is applied.
  const typed = parseTimelineFilter({ expression: text });
  const chips = chipsOf(typed.tree ?? (typed.error ? snapshot.filterTree : null));
  const pick = (change: ChipChange): void => {
    const next = applyChip(text, typed.tree, change);
    setText(next);
    apply(next);
  };
  const active = conjuncts(snapshot.filterTree).length;

  return (
    <div className="filter-bar">
      <FilterExpressionInput
        value={text}
        onChange={setText}
        onApply={(expression) => {
          apply(expression);
          // Applied on purpose: the rows are what the user goes to next, keyboard included.
          uiCommands.fire('focus-table');
        }}
        error={snapshot.filterError && text === filter.expression ? snapshot.filterError : null}
        context={context}
        inputRef={input}
      />
      <MultiSelect
        label="Agents"
        testId={TEST_IDS.filterAgent}
        options={agents.map((a) => ({
          value: a.name,
          label: a.name,
          detail: a.shortId,
          colour: a.colour,
          depth: a.indent,
        }))}
        selected={chips.agents}
        onChange={(values) => pick({ agents: values })}
      />
      <MultiSelect
        label="Types"
        testId={TEST_IDS.filterType}
        options={types.map((t) => ({ value: t, label: t }))}
        selected={chips.types}
        onChange={(values) => pick({ types: values })}
      />
      <select
        className="select"
        aria-label="Final"
        data-testid={TEST_IDS.filterFinal}
        value={chips.final}
        onChange={(e) => pick({ final: e.target.value as 'any' | 'final' | 'not-final' })}
      >
        <option value="any">final: any</option>
        <option value="final">final only</option>
        <option value="not-final">not final</option>
      </select>
      <select
        className="select"
        aria-label="Diagnostics"
        data-testid={TEST_IDS.filterSeverity}
        value={chips.minSeverity ?? ''}
        onChange={(e) => pick({ minSeverity: (e.target.value || null) as Severity | null })}
      >
        <option value="">findings: any row</option>
        <option value="info">with findings</option>
        <option value="warning">warnings and errors</option>
        <option value="error">errors only</option>
      </select>
      {(active > 0 || text.trim() !== '') && (
        <button
          type="button"
          className="button button-small"
          data-testid={TEST_IDS.filterClear}
          onClick={() => {
            setText('');
            timeline.setFilter(EMPTY_FILTER);
          }}
        >
          Clear{active > 0 ? ` (${active})` : ''}
        </button>
      )}
    </div>
  );
}

/**
 * How many envelopes the filter shows, of how many. It sits in the toolbar, outside the
 * filter bar, so that when a narrow window wraps the pickers it stays on the toolbar's line.
 */
export function FilterCount({ snapshot }: { snapshot: TimelineSnapshot }) {
  return (
    <span className="filter-count" data-testid={TEST_IDS.timelineCount}>
      {snapshot.filterActive
        ? `${formatCount(snapshot.visibleCount)} of ${formatCountOf(snapshot.total, 'envelope')}`
        : formatCountOf(snapshot.total, 'envelope')}
      {snapshot.searching && ' · filtering…'}
      {snapshot.searchTruncated && ' · matches capped'}
      {snapshot.filterActive && !snapshot.indexComplete && ' · loading rows…'}
    </span>
  );
}

interface Option {
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
  readonly colour?: string;
  readonly depth?: number;
}

function MultiSelect({
  label,
  options,
  selected,
  onChange,
  testId,
}: {
  label: string;
  options: readonly Option[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  testId: string;
}) {
  const details = useRef<HTMLDetailsElement>(null);
  useMenuDismiss(details);
  const summary = selected.length === 0 ? `${label}: all` : `${label}: ${selected.length}`;
  // One handler for every option, the same function across renders (see Checkbox).
  const toggle = useStableHandler((e: ChangeEvent<HTMLInputElement>) => {
    const { value, checked } = e.target;
    onChange(checked ? [...selected, value] : selected.filter((v) => v !== value));
  });
  return (
    <details
      ref={details}
      className={`multi-select ${selected.length > 0 ? 'multi-select-active' : ''}`}
      data-testid={testId}
    >
      <summary className="select">{summary}</summary>
      <div className="multi-select-menu">
        {options.length === 0 && <div className="hint">Nothing yet.</div>}
        {options.map((option) => (
          <label
            key={option.value}
            className="multi-select-option"
            style={{ paddingLeft: 8 + (option.depth ?? 0) * 12 }}
            data-testid={`${testId}-option`}
            data-value={option.value}
          >
            <Checkbox value={option.value} checked={selected.includes(option.value)} onChange={toggle} />
            {option.colour && <span className="agent-dot" style={{ background: option.colour }} />}
            <span>{option.label}</span>
            {option.detail && <span className="dim">{option.detail}</span>}
          </label>
        ))}
        {selected.length > 0 && (
          <button type="button" className="link-button" onClick={() => onChange([])}>
            Show all
          </button>
        )}
      </div>
    </details>
  );
}
