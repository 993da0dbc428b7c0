import { DIAGNOSTIC_IDS } from './testids';
// The placeholder shows before the view's own code (and stylesheet) has loaded.
import './diagnostics.css';

/**
 * The room of the diagnostics charts before they can be drawn: the view's code and the chart
 * library load on first use, the statistics are asked of main, and a chart is drawn only once
 * its container is measured. Until then these cards hold the room of the two charts every
 * session has (ChunkCharts draws them at these sizes), so the pane never stands empty.
 */
export const FRAME_SIZES_CHART = { title: 'Frame sizes', height: 180 } as const;
export const OVERHEAD_CHART = { title: 'Payload vs envelope overhead, per type', minHeight: 120 } as const;

const CARDS = [
  { title: FRAME_SIZES_CHART.title, height: FRAME_SIZES_CHART.height },
  { title: OVERHEAD_CHART.title, height: OVERHEAD_CHART.minHeight },
];

/** What a chart's room says until it is drawn (ChartFrame says the same inside a drawn card). */
export const DRAWING = 'drawing…';

export function ChartsPlaceholder({ caption = DRAWING }: { caption?: string }) {
  return (
    <div className="chunk-charts" data-testid={DIAGNOSTIC_IDS.chartsPlaceholder} aria-busy="true">
      {CARDS.map((card) => (
        <section key={card.title} className="chart-card">
          <header className="chart-head">
            <span className="chart-title">{card.title}</span>
          </header>
          <div className="chart-drawing" style={{ height: card.height }}>
            {caption}
          </div>
        </section>
      ))}
    </div>
  );
}

/** The diagnostics view while its code loads (the shell's fallback): its two panes, findings loading and the charts' room. */
export function DiagnosticsLoading() {
  return (
    <div className="diagnostics-view">
      <div className="diagnostics-split">
        <div className="findings-pane">
          <div className="view-loading">Loading findings…</div>
        </div>
        <div className="charts-pane">
          <ChartsPlaceholder />
        </div>
      </div>
    </div>
  );
}
