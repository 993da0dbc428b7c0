import { useRef, type ChangeEvent } from 'react';
import type { RendererApp } from '../../model/types';
import { useStore } from '../../app/hooks';
import { useStableHandler } from '../../app/use-stable-handler';
import { Checkbox } from '../../components/Checkbox';
import { useMenuDismiss } from '../../components/use-menu-dismiss';
import { isShown, TIMELINE_COLUMNS, toggleColumn } from '../../model/columns';
import { TEST_IDS } from '../../testids';

/**
 * Which columns the timeline table shows. The row number and Delta always show; a chosen
 * column the table has no room for at this width says so (it returns when there is room).
 */
export function ColumnChooser({ app, dropped }: { app: RendererApp; dropped: readonly string[] }) {
  const prefs = useStore(app.prefs);
  // One handler for every option, the same function across renders (see Checkbox).
  const toggle = useStableHandler((e: ChangeEvent<HTMLInputElement>) => {
    const spec = TIMELINE_COLUMNS.find((c) => c.id === e.target.value);
    if (spec) app.prefs.update((p) => ({ ...p, columns: toggleColumn(p.columns, spec.id) }));
  });
  const details = useRef<HTMLDetailsElement>(null);
  useMenuDismiss(details);
  return (
    <details ref={details} className="multi-select column-chooser" data-testid={TEST_IDS.columnChooser}>
      <summary className="select" title="Choose the table's columns">
        Columns
      </summary>
      <div className="multi-select-menu multi-select-menu-right">
        {TIMELINE_COLUMNS.map((spec) => {
          const fixed = spec.dropOrder === null;
          const noRoom = dropped.includes(spec.id);
          return (
            <label
              key={spec.id}
              className="multi-select-option"
              title={spec.title}
              data-testid={`${TEST_IDS.columnChooser}-option`}
              data-value={spec.id}
            >
              <Checkbox value={spec.id} checked={isShown(spec.id, prefs.columns)} disabled={fixed} onChange={toggle} />
              <span>{spec.label === 'Δ' ? 'Δ (gap)' : spec.label}</span>
              {noRoom && <span className="dim">no room at this width</span>}
            </label>
          );
        })}
        <button
          type="button"
          className="link-button"
          onClick={() => app.prefs.update((p) => ({ ...p, columns: { hidden: [], widths: {} } }))}
        >
          Default columns and widths
        </button>
      </div>
    </details>
  );
}
