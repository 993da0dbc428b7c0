import { useEffect, useRef, useState } from 'react';
import { uiCommands } from '../../app/ui-commands';
import type { AgentLabel } from '../../model/agents';
import { formatCount, formatCountOf } from '../../model/format';
import { activeFilterCount, EMPTY_FILTER, type TimelineFilter } from '../../model/row-filter';
import type { SeverityName } from '../../model/row-index';
import { segmentLabel } from '../../model/segments';
import type { TimelineModel, TimelineSnapshot } from '../../model/timeline';
import { TEST_IDS } from '../../testids';

const TEXT_DEBOUNCE_MS = 250;

/**
 * Filters of the timeline: free text (searched in main), agents, types, segment types of text
 * blocks (matched in main), final, severity.
 */
export function FilterBar({ timeline, snapshot, agents, segmentTypes }: { timeline: TimelineModel; snapshot: TimelineSnapshot; agents: readonly AgentLabel[]; segmentTypes: readonly string[] }) {
  const filter = snapshot.filter;
  const [text, setText] = useState(filter.text);
  const input = useRef<HTMLInputElement>(null);
  const set = (change: Partial<TimelineFilter>): void => timeline.setFilter({ ...timeline.getFilter(), ...change });

  // Keep the field in step when the filter is cleared from elsewhere.
  const [seenText, setSeenText] = useState(filter.text);
  if (seenText !== filter.text) {
    setSeenText(filter.text);
    setText(filter.text);
  }

  useEffect(() => {
    if (text === timeline.getFilter().text) return;
    const timer = window.setTimeout(() => timeline.setFilter({ ...timeline.getFilter(), text }), TEXT_DEBOUNCE_MS);
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

  const types = [...timeline.index.types].sort();
  const active = activeFilterCount(filter);

  return (
    <div className="filter-bar">
      <input
        ref={input}
        className="input filter-text"
        type="search"
        placeholder="Search delta, type, agent, id, name   ( / )"
        spellCheck={false}
        data-testid={TEST_IDS.filterText}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') timeline.setFilter({ ...timeline.getFilter(), text });
          if (e.key === 'Escape') {
            setText('');
            timeline.setFilter({ ...timeline.getFilter(), text: '' });
            e.currentTarget.blur();
          }
        }}
      />
      <MultiSelect
        label="Agents"
        testId={TEST_IDS.filterAgent}
        options={agents.map((a) => ({ value: a.uuid, label: a.name, detail: a.shortId, colour: a.colour, depth: a.depth }))}
        selected={filter.agents}
        onChange={(values) => set({ agents: values })}
      />
      <MultiSelect label="Types" testId={TEST_IDS.filterType} options={types.map((t) => ({ value: t, label: t }))} selected={filter.types} onChange={(values) => set({ types: values })} />
      {(segmentTypes.length > 0 || filter.segments.length > 0) && (
        <MultiSelect
          label="Segments"
          testId={TEST_IDS.filterSegment}
          options={[...new Set([...segmentTypes, ...filter.segments])].map((t) => ({ value: t, label: segmentLabel(t), detail: t }))}
          selected={filter.segments}
          onChange={(values) => set({ segments: values })}
        />
      )}
      <select className="select" aria-label="Final" data-testid={TEST_IDS.filterFinal} value={filter.final} onChange={(e) => set({ final: e.target.value as TimelineFilter['final'] })}>
        <option value="any">final: any</option>
        <option value="final">final only</option>
        <option value="not-final">not final</option>
      </select>
      <select
        className="select"
        aria-label="Diagnostics"
        data-testid={TEST_IDS.filterSeverity}
        value={filter.minSeverity ?? ''}
        onChange={(e) => set({ minSeverity: (e.target.value || null) as SeverityName | null })}
      >
        <option value="">findings: any row</option>
        <option value="info">with findings</option>
        <option value="warning">warnings and errors</option>
        <option value="error">errors only</option>
      </select>
      {active > 0 && (
        <button
          type="button"
          className="button button-small"
          data-testid={TEST_IDS.filterClear}
          onClick={() => {
            setText('');
            timeline.setFilter(EMPTY_FILTER);
          }}
        >
          Clear ({active})
        </button>
      )}
      <span className="spacer" />
      <span className="filter-count" data-testid={TEST_IDS.timelineCount}>
        {snapshot.filterActive ? `${formatCount(snapshot.visibleCount)} of ${formatCountOf(snapshot.total, 'envelope')}` : formatCountOf(snapshot.total, 'envelope')}
        {snapshot.searching && ' · searching…'}
        {snapshot.searchTruncated && ' · search capped'}
        {snapshot.filterActive && !snapshot.indexComplete && ' · loading rows…'}
      </span>
    </div>
  );
}

interface Option {
  readonly value: string;
  readonly label: string;
  readonly detail?: string;
  readonly colour?: string;
  readonly depth?: number;
}

function MultiSelect({ label, options, selected, onChange, testId }: { label: string; options: readonly Option[]; selected: readonly string[]; onChange: (values: string[]) => void; testId: string }) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: MouseEvent): void => {
      if (details.current && !details.current.contains(event.target as Node)) details.current.open = false;
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);
  const summary = selected.length === 0 ? `${label}: all` : `${label}: ${selected.length}`;
  return (
    <details ref={details} className={`multi-select ${selected.length > 0 ? 'multi-select-active' : ''}`} data-testid={testId}>
      <summary className="select">{summary}</summary>
      <div className="multi-select-menu">
        {options.length === 0 && <div className="hint">Nothing yet.</div>}
        {options.map((option) => (
          <label key={option.value} className="multi-select-option" style={{ paddingLeft: 8 + (option.depth ?? 0) * 12 }} data-testid={`${testId}-option`} data-value={option.value}>
            <input
              type="checkbox"
              checked={selected.includes(option.value)}
              onChange={(e) => onChange(e.target.checked ? [...selected, option.value] : selected.filter((v) => v !== option.value))}
            />
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
