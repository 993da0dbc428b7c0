import { useMemo, useState } from 'react';
import { agentsPhrase } from '../../../src-shared/agents/names';
import type { RowStatus, SessionDiff } from '../../../src-shared/diff/types';
import type { AppModel } from '../../model/types';
import { DiffEditor } from '../../editor/CodeView';
import { formatCount, formatCountOf } from '../../model/format';
import { ALL_STATUSES, filterRows, headline, STATUS_LABELS, STATUS_MARKS } from '../../model/diff';
import { DIFF_IDS } from './testids';
import { BlockDiff, DiffRowView, EnvelopeDifferences, type DiffSide } from './DiffRows';

/** The Diff view's tabs: the selected block, the whole transcript, the envelope-level differences. */
type Tab = 'block' | 'transcript' | 'envelopes';

/** A computed diff: the counts, the aligned block rows, and the tab that shows the selection. */
export function DiffResult({
  app,
  diff,
  transcript,
  left,
  right,
  selected,
  onSelect,
  stale,
  sessionsOpen = true,
}: {
  app: AppModel;
  diff: SessionDiff;
  transcript: { left: string; right: string };
  left: DiffSide;
  right: DiffSide;
  selected: number | null;
  onSelect: (row: number) => void;
  stale: boolean;
  /** False for a diff read from its export: its blocks are named, not opened. */
  sessionsOpen?: boolean;
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
                <BlockDiff app={app} row={row} left={left} right={right} sessionsOpen={sessionsOpen} />
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

function SideLine({ side, summary, profile }: { side: string; summary: DiffSide; profile: SessionDiff['left'] }) {
  return (
    <span className="side-line" title={summary.title}>
      <strong>{side}</strong> {profile.dialects.join('+') || 'undetected'} ·{' '}
      {profile.generation !== undefined && `${profile.generation} · `}
      {formatCountOf(profile.blocks, 'block')} ·{' '}
      {agentsPhrase(profile.agents, profile.unattributed === true, formatCount)}
    </span>
  );
}
