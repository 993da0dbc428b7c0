/**
 * The in-page half of the renderer-rate bench, injected with Playwright's `addInitScript`.
 * Kept as plain JavaScript text: a function would be serialised from tsx's transpiled
 * output, which carries helpers (`__name`) the page does not have.
 *
 * - Long tasks: a PerformanceObserver on 'longtask' keeps every one, as [start, duration]
 *   with the start in wall-clock ms (so the bench can leave out the stream's first second).
 * - Paints: every animation frame, the newest row in the DOM that was not there before and
 *   the wall-clock time just after that frame painted (a task queued from the frame runs
 *   after its paint). The bench asks main when that row's envelope arrived: arrival in main
 *   to row painted, one sample per frame that showed new rows.
 * - When a frame's rows are read: after its layout, in a ResizeObserver callback (the probe's
 *   own animation frame callback changes the size of a hidden marker so that it runs in
 *   every frame). The rendering steps run the animation frame callbacks, then style and
 *   layout, then the resize observers, then paint, so what the DOM holds then is what that
 *   frame paints. Read in the probe's animation frame callback instead, the rows were those
 *   of the frame before: that callback runs first in each frame (it was registered in the
 *   previous one, before any batch arrived), ahead of the one that applies the batches, so
 *   each row was counted one frame after the one that painted it (measured side by side:
 *   6–21 ms more at the median, 30–36 ms more at p95; docs/performance.md).
 *
 * `window.__rendererRate.settled(ms)` waits for the page's startup to be over (page-settled.ts),
 * `arm()` starts recording when the stream starts, `streamEnded()` stops counting frames,
 * `collect()` returns everything.
 */
import { SETTLED_SNIPPET } from './page-settled';

export interface ProbeSamples {
  /** [wall-clock start ms, duration ms]. */
  longTasks: [number, number][];
  /** [seq, wall-clock ms just after the frame that first showed it painted]. */
  paints: [number, number][];
  /** Animation frames while the stream ran. */
  frames: number;
}

export const PROBE_SCRIPT = String.raw`
(() => {${SETTLED_SNIPPET}
  const state = { armed: false, streaming: false, longTasks: [], paints: [], newestPainted: -1, frames: 0 };
  const ROWS = '[data-testid="timeline-table"] [data-seq]';
  const marker = document.createElement('div');
  marker.style.cssText = 'position: fixed; left: 0; top: 0; width: 1px; height: 1px; visibility: hidden; pointer-events: none';
  new ResizeObserver(() => {
    if (!state.armed) return;
    let newestSeq = -1;
    for (const row of document.querySelectorAll(ROWS)) newestSeq = Math.max(newestSeq, Number(row.dataset.seq));
    if (newestSeq > state.newestPainted) {
      state.newestPainted = newestSeq;
      setTimeout(() => state.paints.push([newestSeq, Date.now()]), 0);
    }
  }).observe(marker);
  const frame = () => {
    if (state.armed) {
      if (state.streaming) state.frames++;
      marker.style.width = marker.style.width === '1px' ? '2px' : '1px';
    }
    requestAnimationFrame(frame);
  };
  new PerformanceObserver((list) => {
    if (!state.armed) return;
    for (const entry of list.getEntries()) state.longTasks.push([performance.timeOrigin + entry.startTime, entry.duration]);
  }).observe({ type: 'longtask' });
  const start = () => {
    document.documentElement.appendChild(marker);
    requestAnimationFrame(frame);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  window.__rendererRate = {
    settled,
    arm() { state.armed = true; state.streaming = true; },
    streamEnded() { state.streaming = false; },
    collect() {
      state.armed = false;
      return { longTasks: state.longTasks, paints: state.paints, frames: state.frames };
    },
  };
})();
`;
