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
  const frame = () => {
    if (state.armed) {
      if (state.streaming) state.frames++;
      let newestSeq = -1;
      for (const row of document.querySelectorAll(ROWS)) newestSeq = Math.max(newestSeq, Number(row.dataset.seq));
      if (newestSeq > state.newestPainted) {
        state.newestPainted = newestSeq;
        setTimeout(() => state.paints.push([newestSeq, Date.now()]), 0);
      }
    }
    requestAnimationFrame(frame);
  };
  new PerformanceObserver((list) => {
    if (!state.armed) return;
    for (const entry of list.getEntries()) state.longTasks.push([performance.timeOrigin + entry.startTime, entry.duration]);
  }).observe({ type: 'longtask' });
  const start = () => requestAnimationFrame(frame);
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
