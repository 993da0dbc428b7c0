import type { ReactElement, ReactNode } from 'react';
import { ResponsiveContainer } from 'recharts';
import { DRAWING } from './ChartsPlaceholder';

/** What every chunk chart shares: the theme's palette, the card around a chart, axis and tooltip styles. */

interface Palette {
  grid: string;
  axis: string;
  text: string;
  tooltipBg: string;
  tooltipBorder: string;
  bar: string;
  barOver: string;
  payload: string;
  envelope: string;
  escaping: string;
  budget: string;
  full: string;
  underfull: string;
  overfull: string;
  chunks: string;
  frames: string;
  split: string;
}

/** Each chart colour's theme variable (styles/theme.css): a series keeps its hue in both themes. */
export const PALETTE_VARIABLES: Record<keyof Palette, string> = {
  grid: '--chart-grid',
  axis: '--chart-axis',
  text: '--chart-text',
  tooltipBg: '--chart-tooltip-bg',
  tooltipBorder: '--chart-tooltip-border',
  bar: '--chart-blue',
  barOver: '--chart-red',
  payload: '--chart-blue',
  envelope: '--chart-grey',
  escaping: '--chart-amber',
  budget: '--chart-red',
  full: '--chart-green',
  underfull: '--chart-amber',
  overfull: '--chart-red',
  chunks: '--chart-purple',
  frames: '--chart-blue',
  split: '--chart-amber',
};

export const FONT = 11;
export const MARGIN = { top: 8, right: 12, bottom: 2, left: 0 };

export function ChartCard({
  title,
  subtitle,
  testId,
  children,
  note,
}: {
  title: string;
  subtitle?: ReactNode;
  testId: string;
  children: ReactNode;
  note?: ReactNode;
}) {
  return (
    <section className="chart-card" data-testid={testId}>
      <header className="chart-head">
        <span className="chart-title">{title}</span>
        {subtitle && <span className="chart-sub">{subtitle}</span>}
      </header>
      <div className="chart-body">{children}</div>
      {note && <div className="chart-note">{note}</div>}
    </section>
  );
}

/**
 * A chart's room, sized before the chart is: ResponsiveContainer draws nothing until it has
 * measured its container after mount, so the frame says "drawing…" until the chart's surface
 * is in it (diagnostics.css hides the caption then).
 */
export function ChartFrame({
  width = '100%',
  height,
  children,
}: {
  width?: `${number}%`;
  height: number;
  children: ReactElement;
}) {
  return (
    <div className="chart-frame" style={{ width, height }}>
      <span className="chart-drawing" aria-hidden="true">
        {DRAWING}
      </span>
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}

/** Tooltip labels are category names (strings) here; anything else shows nothing. */
export function labelText(label: unknown): string {
  return typeof label === 'string' || typeof label === 'number' ? String(label) : '';
}

export function axisProps(p: Palette) {
  return { stroke: p.axis, tick: { fill: p.text, fontSize: FONT }, tickLine: false } as const;
}

/**
 * A legend in the charts' text colour: the library colours each label like its series, and a
 * light series (the envelope's grey) made a label too faint to read.
 */
export function legendProps(p: Palette) {
  return {
    wrapperStyle: { fontSize: FONT, color: p.text },
    iconSize: 9,
    formatter: (value: unknown) => <span style={{ color: p.text }}>{labelText(value)}</span>,
  } as const;
}

export function tooltipProps(p: Palette) {
  return {
    contentStyle: {
      background: p.tooltipBg,
      border: `1px solid ${p.tooltipBorder}`,
      fontSize: FONT,
      padding: '4px 8px',
    },
    labelStyle: { color: p.text },
    itemStyle: { padding: 0 },
    cursor: { fill: p.grid, opacity: 0.5 },
    isAnimationActive: false,
  } as const;
}
