import { flexRender, type Header } from '@tanstack/react-table';
import { columnSpec, type ColumnId } from '../../model/columns';
import type { RendererApp } from '../../model/types';
import type { WindowRow } from '../../model/window-rows';

/**
 * The timeline's header row: each shown column's label with its resize handle (drag to
 * resize; a double-click puts back the default width, remembered in the preferences).
 */
export function TimelineHeader({
  app,
  headers,
  height,
  width,
}: {
  app: RendererApp;
  headers: readonly Header<WindowRow, unknown>[];
  height: number;
  width: number;
}) {
  const resetWidth = (id: ColumnId): void =>
    app.prefs.update((p) => ({
      ...p,
      columns: { ...p.columns, widths: { ...p.columns.widths, [id]: columnSpec(id).width } },
    }));
  return (
    <div className="tt-header" role="row" aria-rowindex={1} style={{ height, width }}>
      {headers.map((header) => (
        <div
          key={header.id}
          role="columnheader"
          className={`tt-cell tt-col-${header.column.id}`}
          style={{ width: header.getSize() }}
        >
          {flexRender(header.column.columnDef.header, header.getContext())}
          {header.column.getCanResize() && (
            <div
              className={`tt-resizer ${header.column.getIsResizing() ? 'tt-resizing' : ''}`}
              onMouseDown={header.getResizeHandler()}
              onDoubleClick={() => resetWidth(header.column.id as ColumnId)}
              role="separator"
              aria-label={`Resize the ${columnSpec(header.column.id as ColumnId).label} column`}
              title="Drag to resize; double-click for the default width"
            />
          )}
        </div>
      ))}
    </div>
  );
}
