import type { SessionSummary } from '../../../src-shared/contract';
import type { DiffRow, SessionDiff } from '../../../src-shared/diff/types';
import type { AppModel } from '../../model/types';
import { DiffEditor } from '../../editor/CodeView';
import {
  inherentLabel,
  normalisationLabels,
  pairLabel,
  rowLanguage,
  STATUS_LABELS,
  STATUS_MARKS,
} from '../../model/diff';
import { DIFF_IDS } from './testids';

/** What the diff needs of each compared session: its id (to open its blocks) and its title. */
export type DiffSide = Pick<SessionSummary, 'id' | 'title'>;

/** One aligned pair of blocks (or a block on one side only) in the alignment list. */
export function DiffRowView({
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

/** The selected row's two blocks in a diff editor. */
export function BlockDiff({
  app,
  row,
  left,
  right,
  sessionsOpen,
}: {
  app: AppModel;
  row: DiffRow;
  left: DiffSide;
  right: DiffSide;
  sessionsOpen: boolean;
}) {
  const open = (session: DiffSide, blockId: number): void => {
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
            <BlockLink
              label={`left #${row.left.blockId}`}
              onOpen={sessionsOpen ? () => open(left, row.left?.blockId ?? 0) : null}
            />
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
            <BlockLink
              label={`right #${row.right.blockId}`}
              onOpen={sessionsOpen ? () => open(right, row.right?.blockId ?? 0) : null}
            />
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

/** A block of a side: a link that opens it in its session, or its name alone when the session is not open. */
function BlockLink({ label, onOpen }: { label: string; onOpen: (() => void) | null }) {
  if (!onOpen) return <span className="mono">{label}</span>;
  return (
    <button type="button" className="link-button" onClick={onOpen}>
      {label}
    </button>
  );
}

/** What differs below the blocks: chunking, escaping, wire bytes. */
export function EnvelopeDifferences({ diff }: { diff: SessionDiff }) {
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
            </tr>
          </thead>
          {/* The note reads on its own line under its row: as a sixth column it was squeezed to a few
              words a line in the half-width pane, or pushed out of view. */}
          {differences.map((d, i) => (
            <tbody key={i} className="envelope-diff">
              <tr data-testid={DIFF_IDS.envelopeRow}>
                <td className="mono nowrap">{pairLabel(diff, d.pair)}</td>
                <td className="mono nowrap">{d.type}</td>
                <td className="nowrap">{d.aspect}</td>
                <td className="mono">{String(d.left)}</td>
                <td className="mono">{String(d.right)}</td>
              </tr>
              <tr className="envelope-diff-note">
                <td colSpan={5} className="muted">
                  {d.note}
                </td>
              </tr>
            </tbody>
          ))}
        </table>
      )}
    </div>
  );
}
