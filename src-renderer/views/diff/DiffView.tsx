import { downloadBlob } from '../../app/browser';
import { useEffect, useMemo, useState } from 'react';
import type { SessionSummary } from '../../../src-shared/contract';
import type { DiffRow, RowStatus, SessionDiff } from '../../../src-shared/diff/types';
import { useStore } from '../../app/hooks';
import type { AppModel, ViewProps } from '../../model/types';
import { EmptyState } from '../../components/EmptyState';
import { DiffEditor } from '../../editor/CodeView';
import { comparePairKey, type ComparePair } from '../../model/diff-runner';
import { formatCountOf, sessionOptionLabel } from '../../model/format';
import {
  ALL_STATUSES,
  exportDiff,
  exportFileName,
  filterRows,
  headline,
  inherentLabel,
  isDiffable,
  normalisationLabels,
  pairLabel,
  rowLanguage,
  STATUS_LABELS,
  STATUS_MARKS,
  suggestPair,
} from '../../model/diff';
import { diffModel, type DiffState } from './diff-model';
import { DIFF_IDS } from './testids';
import '../blocks/blocks.css';
import './diff.css';

/**
 * Two sessions side by side (typically one run in XML and in JSON): the block alignment with
 * counts at the top, a diff editor for the selected block and for the whole transcript, and
 * the envelope-level differences (chunking, escaping, wire bytes) listed apart.
 */

/** The pair the pickers show, when it can be compared. */
function pickedPair(state: Pick<DiffState, 'left' | 'right' | 'flatten'>): ComparePair | null {
  if (state.left === null || state.right === null || state.left === state.right) return null;
  return { left: state.left, right: state.right, flattenAgents: state.flatten === 'on' };
}

export function DiffView({ app }: ViewProps) {
  const { store, runner } = diffModel(app);
  const state = useStore(store);
  const { list } = useStore(app.sessions);
  const candidates = useMemo(() => list.filter(isDiffable), [list]);

  // Pick a default pair once two finished sessions exist, and forget sessions that were closed.
  useEffect(() => {
    const ids = new Set(candidates.map((s) => s.id));
    const current = store.getSnapshot();
    if (current.left !== null && current.right !== null && ids.has(current.left) && ids.has(current.right)) return;
    const pair = suggestPair(candidates);
    store.update((s) => ({
      ...s,
      left: pair?.left ?? (s.left !== null && ids.has(s.left) ? s.left : null),
      right: pair?.right ?? (s.right !== null && ids.has(s.right) ? s.right : null),
    }));
  }, [candidates, store]);

  // Compare automatically whenever the picked pair changes; the runner keeps only the latest.
  const { left: leftId, right: rightId, flatten } = state;
  useEffect(() => {
    runner.want(pickedPair({ left: leftId, right: rightId, flatten }));
  }, [runner, leftId, rightId, flatten]);

  const picked = pickedPair(state);
  const stale = picked === null || state.of === null || comparePairKey(picked) !== comparePairKey(state.of);

  if (candidates.length < 2) {
    return (
      <div className="diff-view" data-testid={DIFF_IDS.view}>
        <EmptyState title="Two finished sessions are needed" testId={DIFF_IDS.empty}>
          Run one scenario of the demo agent twice, once with format <code>xml</code> and once with <code>json</code>{' '}
          (Connect tab), or open two recordings; then compare them here. Sessions still streaming are not offered.
        </EmptyState>
      </div>
    );
  }

  const left = candidates.find((s) => s.id === state.of?.left) ?? null;
  const right = candidates.find((s) => s.id === state.of?.right) ?? null;

  return (
    <div className="diff-view" data-testid={DIFF_IDS.view}>
      <div className="toolbar diff-toolbar">
        <SessionPicker
          label="Left"
          value={state.left}
          sessions={candidates}
          testId={DIFF_IDS.left}
          onChange={(id) => store.update((s) => ({ ...s, left: id }))}
        />
        <button
          type="button"
          className="icon-button"
          title="Swap left and right"
          aria-label="Swap"
          data-testid={DIFF_IDS.swap}
          onClick={() => store.update((s) => ({ ...s, left: s.right, right: s.left }))}
        >
          ⇄
        </button>
        <SessionPicker
          label="Right"
          value={state.right}
          sessions={candidates}
          testId={DIFF_IDS.right}
          onChange={(id) => store.update((s) => ({ ...s, right: id }))}
        />
        <label
          className="toolbar-check"
          title="Align blocks across agents (chosen automatically when a side cannot attribute sub-agents)"
        >
          <input
            type="checkbox"
            checked={state.flatten === 'on'}
            onChange={(e) => store.update((s) => ({ ...s, flatten: e.target.checked ? 'on' : 'auto' }))}
            data-testid={DIFF_IDS.flatten}
          />
          Ignore agents
        </label>
        <button
          type="button"
          className="button button-small"
          title="Compare the two sessions again (they are compared by themselves when the pair changes)"
          onClick={() => runner.want(picked, { again: true })}
          disabled={picked === null || state.busy}
          data-testid={DIFF_IDS.compare}
        >
          {state.busy ? 'Comparing…' : 'Compare again'}
        </button>
        <span className="spacer" />
        <button
          type="button"
          className="button button-small"
          disabled={!state.diff || !left || !right}
          data-testid={DIFF_IDS.export}
          title="Download the whole diff as JSON"
          onClick={() => {
            if (state.diff && left && right)
              downloadBlob(
                exportFileName(left, right),
                new Blob([exportDiff(state.diff, left, right, Date.now())], { type: 'application/json' }),
              );
          }}
        >
          Export JSON
        </button>
      </div>
      {state.left !== null && state.left === state.right && (
        <div className="inline-error">Pick two different sessions.</div>
      )}
      {state.error && <div className="inline-error">The diff failed: {state.error}</div>}
      {state.busy && !state.diff && (
        <div className="muted pad" data-testid={DIFF_IDS.loading}>
          Comparing…
        </div>
      )}
      {state.diff && state.transcript && left && right && (
        <DiffResult
          app={app}
          diff={state.diff}
          transcript={state.transcript}
          left={left}
          right={right}
          selected={state.selected}
          onSelect={(selected) => store.update((s) => ({ ...s, selected }))}
          stale={stale}
        />
      )}
    </div>
  );
}

function SessionPicker({
  label,
  value,
  sessions,
  testId,
  onChange,
}: {
  label: string;
  value: string | null;
  sessions: readonly SessionSummary[];
  testId: string;
  onChange: (id: string) => void;
}) {
  return (
    <label className="toolbar-field">
      <span className="muted">{label}</span>
      <select
        className="diff-picker"
        value={value ?? ''}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        {value === null && <option value="">Pick a session…</option>}
        {sessions.map((s) => (
          <option key={s.id} value={s.id}>
            {sessionOptionLabel(s)}
          </option>
        ))}
      </select>
    </label>
  );
}

type Tab = 'block' | 'transcript' | 'envelopes';

function DiffResult({
  app,
  diff,
  transcript,
  left,
  right,
  selected,
  onSelect,
  stale,
}: {
  app: AppModel;
  diff: SessionDiff;
  transcript: { left: string; right: string };
  left: SessionSummary;
  right: SessionSummary;
  selected: number | null;
  onSelect: (row: number) => void;
  stale: boolean;
}) {
  const [statuses, setStatuses] = useState<ReadonlySet<RowStatus>>(() => new Set(ALL_STATUSES));
  const [hideInherent, setHideInherent] = useState(false);
  const [text, setText] = useState('');
  const [tab, setTab] = useState<Tab>('block');
  const rows = useMemo(
    () => filterRows(diff.rows, { statuses, hideInherent, text }),
    [diff.rows, statuses, hideInherent, text],
  );
  const row = selected !== null ? diff.rows[selected] : undefined;
  const { counts } = diff;
  const clean = counts.differences === 0;

  const toggleStatus = (status: RowStatus): void =>
    setStatuses((current) => {
      const next = new Set(current);
      if (next.has(status)) next.delete(status);
      else next.add(status);
      return next;
    });

  return (
    <div className={`diff-result ${stale ? 'is-stale' : ''}`} data-testid={DIFF_IDS.result} data-stale={stale}>
      <div className="diff-summary" data-testid={DIFF_IDS.counts}>
        <span
          className={`diff-headline ${clean ? 'is-clean' : 'is-dirty'}`}
          data-testid={DIFF_IDS.headline}
          data-differences={counts.differences}
        >
          {clean ? '✓' : '≠'} {headline(counts)}
        </span>
        <Count
          label="equal"
          value={counts.equal}
          extra={counts.normalised > 0 ? `${counts.normalised} after normalising` : undefined}
          tone="ok"
        />
        <Count label="changed" value={counts.changed} tone={counts.changed > 0 ? 'warning' : 'neutral'} />
        <Count label="only left" value={counts.onlyLeft} tone={counts.onlyLeft > 0 ? 'warning' : 'neutral'} />
        <Count label="only right" value={counts.onlyRight} tone={counts.onlyRight > 0 ? 'warning' : 'neutral'} />
        <Count label="inherent" value={counts.inherent} tone="info" />
        <Count label="envelope-level" value={diff.envelopes.differences.length} tone="neutral" />
        <span className="spacer" />
        <span className="diff-sides muted small">
          <SideLine side="L" summary={left} profile={diff.left} />{' '}
          <SideLine side="R" summary={right} profile={diff.right} />
          {diff.flattened && (
            <span
              className="chip chip-small"
              title="A side cannot attribute sub-agents (xml/raw), so blocks are aligned across agents"
            >
              agents flattened
            </span>
          )}
        </span>
      </div>

      <div className="diff-split">
        <div className="diff-table-pane">
          <div className="toolbar diff-filters">
            {ALL_STATUSES.map((status) => (
              <button
                key={status}
                type="button"
                className={`pill-toggle status-toggle st-${status} ${statuses.has(status) ? 'is-on' : ''}`}
                aria-pressed={statuses.has(status)}
                data-testid={`${DIFF_IDS.statusFilter}-${status}`}
                onClick={() => toggleStatus(status)}
              >
                {STATUS_MARKS[status]} {STATUS_LABELS[status]}
              </button>
            ))}
            <label className="toolbar-check">
              <input
                type="checkbox"
                checked={hideInherent}
                onChange={(e) => setHideInherent(e.target.checked)}
                data-testid={DIFF_IDS.hideInherent}
              />
              Hide inherent
            </label>
            <input
              className="input diff-filter-text"
              type="search"
              placeholder="Filter kind, tool, reason"
              value={text}
              onChange={(e) => setText(e.target.value)}
              data-testid={DIFF_IDS.filterText}
            />
            <span className="muted small">
              {rows.length} / {formatCountOf(diff.rows.length, 'row')}
            </span>
          </div>
          <div className="diff-table-scroll">
            <table className="diff-table" data-testid={DIFF_IDS.table}>
              <thead>
                <tr>
                  <th className="c-st" />
                  {!diff.flattened && <th className="c-pair">agent</th>}
                  <th className="c-kind">block</th>
                  <th className="c-id">left</th>
                  <th className="c-id">right</th>
                  <th>why</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ index, row: r }) => (
                  <DiffRowView
                    key={index}
                    index={index}
                    row={r}
                    diff={diff}
                    selected={index === selected}
                    onSelect={() => onSelect(index)}
                  />
                ))}
              </tbody>
            </table>
            {rows.length === 0 && <div className="muted pad">No rows match the filters.</div>}
          </div>
        </div>

        <div className="diff-detail-pane">
          <div className="diff-tabs segmented">
            <button
              type="button"
              className={tab === 'block' ? 'segmented-active' : ''}
              onClick={() => setTab('block')}
              data-testid={DIFF_IDS.tabBlock}
            >
              Selected block
            </button>
            <button
              type="button"
              className={tab === 'transcript' ? 'segmented-active' : ''}
              onClick={() => setTab('transcript')}
              data-testid={DIFF_IDS.tabTranscript}
            >
              Whole transcript
            </button>
            <button
              type="button"
              className={tab === 'envelopes' ? 'segmented-active' : ''}
              onClick={() => setTab('envelopes')}
              data-testid={DIFF_IDS.tabEnvelopes}
            >
              Envelope level ({diff.envelopes.differences.length})
            </button>
          </div>
          <div className="diff-detail-body">
            {tab === 'block' &&
              (row ? (
                <BlockDiff app={app} row={row} left={left} right={right} />
              ) : (
                <div className="muted pad">Select a row to compare its two blocks.</div>
              ))}
            {tab === 'transcript' && (
              <DiffEditor
                original={transcript.left}
                modified={transcript.right}
                language="markdown"
                testId={DIFF_IDS.transcriptEditor}
              />
            )}
            {tab === 'envelopes' && <EnvelopeDifferences diff={diff} />}
          </div>
        </div>
      </div>
    </div>
  );
}

function Count({
  label,
  value,
  extra,
  tone,
}: {
  label: string;
  value: number;
  extra?: string | undefined;
  tone: 'ok' | 'warning' | 'info' | 'neutral';
}) {
  return (
    <span
      className={`diff-count tone-${value > 0 ? tone : 'neutral'}`}
      data-testid={`${DIFF_IDS.count}-${label.replace(/\s+/g, '-')}`}
      title={extra}
    >
      <span className="diff-count-n">{value}</span> {label}
    </span>
  );
}

function SideLine({ side, summary, profile }: { side: string; summary: SessionSummary; profile: SessionDiff['left'] }) {
  return (
    <span className="side-line" title={summary.title}>
      <strong>{side}</strong> {profile.dialects.join('+') || 'undetected'} · {profile.generation} ·{' '}
      {formatCountOf(profile.blocks, 'block')} · {formatCountOf(profile.agents, 'agent')}
    </span>
  );
}

function DiffRowView({
  index,
  row,
  diff,
  selected,
  onSelect,
}: {
  index: number;
  row: DiffRow;
  diff: SessionDiff;
  selected: boolean;
  onSelect: () => void;
}) {
  const labels = normalisationLabels(row.normalisations);
  return (
    <tr
      className={`st-${row.status} ${row.inherent ? 'is-inherent' : ''} ${selected ? 'is-selected' : ''}`}
      onClick={onSelect}
      data-testid={DIFF_IDS.row}
      data-row={index}
      data-status={row.status}
      aria-selected={selected}
    >
      <td className="c-st" title={STATUS_LABELS[row.status]}>
        {STATUS_MARKS[row.status]}
      </td>
      {!diff.flattened && <td className="c-pair mono">{pairLabel(diff, row.pair)}</td>}
      <td className="c-kind">
        <span className="strong">{row.kind}</span>
        {row.name !== undefined && <span className="mono"> {row.name}</span>}
        {row.toolId !== undefined && <span className="mono muted small"> {row.toolId}</span>}
      </td>
      <td className="c-id mono">{row.left ? `#${row.left.blockId}` : '—'}</td>
      <td className="c-id mono">{row.right ? `#${row.right.blockId}` : '—'}</td>
      <td className="c-why">
        <div className="why">
          <span>{row.reason}</span>
          {labels.map((label) => (
            <span key={label} className="chip chip-small" title="normalised before comparing">
              {label}
            </span>
          ))}
          {row.inherent && (
            <span className="chip chip-small st-inherent" title={inherentLabel(row.inherent).description}>
              inherent
            </span>
          )}
        </div>
      </td>
    </tr>
  );
}

function BlockDiff({
  app,
  row,
  left,
  right,
}: {
  app: AppModel;
  row: DiffRow;
  left: SessionSummary;
  right: SessionSummary;
}) {
  const open = (session: SessionSummary, blockId: number): void => {
    app.setActiveSession(session.id);
    void app
      .run('Open block', () => app.commands(session.id).block(blockId), session.id)
      .then((detail) => {
        if (!detail) return;
        app.selectEnvelopes(detail.envelopes, { block: blockId, reveal: false });
        app.navigate('blocks');
      });
  };
  return (
    <div className="block-diff">
      <div className="block-diff-head">
        <span>
          {row.left ? (
            <button type="button" className="link-button" onClick={() => open(left, row.left?.blockId ?? 0)}>
              left #{row.left.blockId}
            </button>
          ) : (
            <span className="muted">not in left</span>
          )}
        </span>
        <span className="strong">
          {row.kind}
          {row.name ? ` ${row.name}` : ''}
        </span>
        <span className="muted small">{row.reason}</span>
        <span className="spacer" />
        <span>
          {row.right ? (
            <button type="button" className="link-button" onClick={() => open(right, row.right?.blockId ?? 0)}>
              right #{row.right.blockId}
            </button>
          ) : (
            <span className="muted">not in right</span>
          )}
        </span>
      </div>
      {row.inherent && (
        <div className="inherent-note">
          <strong>Inherent to the formats: {inherentLabel(row.inherent).label}.</strong>{' '}
          {inherentLabel(row.inherent).description}
        </div>
      )}
      <div className="block-diff-editor">
        <DiffEditor
          original={row.left?.text ?? ''}
          modified={row.right?.text ?? ''}
          language={rowLanguage(row)}
          testId={DIFF_IDS.blockEditor}
        />
      </div>
    </div>
  );
}

function EnvelopeDifferences({ diff }: { diff: SessionDiff }) {
  const { totals, differences } = diff.envelopes;
  return (
    <div className="envelope-diffs">
      <table className="totals-table">
        <thead>
          <tr>
            <th />
            <th>envelopes</th>
            <th>frames</th>
            <th>wire bytes</th>
            <th>payload bytes</th>
          </tr>
        </thead>
        <tbody>
          {(['left', 'right'] as const).map((side) => (
            <tr key={side}>
              <td className="strong">{side}</td>
              <td className="mono">{totals[side].envelopes}</td>
              <td className="mono">{totals[side].frames}</td>
              <td className="mono">{totals[side].wireBytes}</td>
              <td className="mono">{totals[side].payloadBytes}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {differences.length === 0 ? (
        <div className="muted pad">No envelope-level differences: the two streams were chunked and escaped alike.</div>
      ) : (
        <table className="diff-table" data-testid={DIFF_IDS.envelopeTable}>
          <thead>
            <tr>
              <th>agent</th>
              <th>type</th>
              <th>aspect</th>
              <th>left</th>
              <th>right</th>
              <th>note</th>
            </tr>
          </thead>
          <tbody>
            {differences.map((d, i) => (
              <tr key={i} data-testid={DIFF_IDS.envelopeRow}>
                <td className="mono nowrap">{pairLabel(diff, d.pair)}</td>
                <td className="mono nowrap">{d.type}</td>
                <td className="nowrap">{d.aspect}</td>
                <td className="mono">{String(d.left)}</td>
                <td className="mono">{String(d.right)}</td>
                <td className="muted">{d.note}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
