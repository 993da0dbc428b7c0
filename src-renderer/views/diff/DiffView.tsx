import { downloadBlob } from '../../app/browser';
import { useEffect, useMemo } from 'react';
import type { SessionSummary } from '../../../src-shared/contract';
import { useStore } from '../../app/hooks';
import type { ViewProps } from '../../model/types';
import { EmptyState } from '../../components/EmptyState';
import { comparePairKey, type ComparePair } from '../../model/diff-runner';
import { sessionOptionLabels } from '../../model/format';
import { exportFileName, firstInterestingRow, isDiffable, suggestPair } from '../../model/diff';
import { writeDiffExport } from '../../../src-shared/diff/export';
import { diffModel, type DiffState } from './diff-model';
import { DIFF_IDS } from './testids';
import '../blocks/blocks.css';
import './diff.css';
import { DiffResult } from './DiffResult';
import { ExportedDiffView, OpenExportedDiffButton, readExportedDiff } from './ExportedDiff';

/** The pair the pickers show, when it can be compared. */
function pickedPair(state: Pick<DiffState, 'left' | 'right' | 'flatten'>): ComparePair | null {
  if (state.left === null || state.right === null || state.left === state.right) return null;
  return { left: state.left, right: state.right, flattenAgents: state.flatten === 'on' };
}

/**
 * Two sessions side by side (typically one run in XML and in JSON): the block alignment with
 * counts at the top, a diff editor for the selected block and for the whole transcript, and
 * the envelope-level differences (chunking, escaping, wire bytes) listed apart.
 */
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
  const openExported = (file: File): void =>
    void readExportedDiff(file).then((read) =>
      store.update((s) =>
        read.ok
          ? { ...s, exported: read.diff, exportError: null, selected: firstInterestingRow(read.diff.diff.rows) }
          : { ...s, exportError: read.error },
      ),
    );
  const exportError = state.exportError && (
    <div className="inline-error" data-testid={DIFF_IDS.exportError}>
      Could not show the exported diff: {state.exportError}
    </div>
  );

  if (state.exported) {
    return (
      <div className="diff-view" data-testid={DIFF_IDS.view}>
        <ExportedDiffView
          app={app}
          exported={state.exported}
          selected={state.selected}
          onSelect={(selected) => store.update((s) => ({ ...s, selected }))}
          onClose={() =>
            store.update((s) => ({ ...s, exported: null, selected: s.diff ? firstInterestingRow(s.diff.rows) : null }))
          }
        />
      </div>
    );
  }

  if (candidates.length < 2) {
    return (
      <div className="diff-view" data-testid={DIFF_IDS.view}>
        {exportError}
        <EmptyState title="Two finished sessions are needed" testId={DIFF_IDS.empty}>
          Run one scenario of the demo agent twice, once with format <code>xml</code> and once with <code>json</code>{' '}
          (Connect tab), or open two recordings; then compare them here. Sessions still streaming are not offered. A
          diff saved with Export JSON opens here too: <OpenExportedDiffButton onFile={openExported} />
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
                new Blob([writeDiffExport(state.diff, left, right, Date.now())], { type: 'application/json' }),
              );
          }}
        >
          Export JSON
        </button>
        <OpenExportedDiffButton onFile={openExported} />
      </div>
      {exportError}
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
  const labels = useMemo(() => sessionOptionLabels(sessions), [sessions]);
  return (
    <label className="toolbar-field">
      <span className="muted">{label}</span>
      <select
        className="diff-picker"
        value={value ?? ''}
        // The picker is narrower than a long label: its tooltip says the end that tells sessions apart.
        title={value === null ? undefined : labels.get(value)}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        {value === null && <option value="">Pick a session…</option>}
        {sessions.map((s) => (
          <option key={s.id} value={s.id}>
            {labels.get(s.id)}
          </option>
        ))}
      </select>
    </label>
  );
}
