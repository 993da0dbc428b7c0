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
 * - Row lag: a MutationObserver records, for every timeline row the first time its delta
 *   cell shows `t=<ms>`, how long after the envelope was sent that was (`Date.now()` against
 *   the sender's `epoch + t`: same machine, same wall clock). Rows the table scrolled past
 *   between two renders are never in the DOM and are not counted.
 * - Staleness: every animation frame while the stream runs, the age of the newest row in
 *   the DOM (what a user watching the following table sees).
 *
 * `window.__rendererRate.settled(ms)` waits for the page's startup to be over (page-settled.ts),
 * `arm(epoch)` starts recording when the stream starts,
 * `streamEnded()` stops the staleness samples, `collect()` returns everything.
 */
import { SETTLED_SNIPPET } from './page-settled';

export interface ProbeSamples {
  rowLags: number[];
  frameStaleness: number[];
  /** [wall-clock start ms, duration ms]. */
  longTasks: [number, number][];
  /** [seq, wall-clock ms just after the frame that first showed it painted]. */
  paints: [number, number][];
  frames: number;
  maxSeqSeen: number;
}

export const PROBE_SCRIPT = String.raw`
(() => {${SETTLED_SNIPPET}
  const state = { epoch: 0, armed: false, streaming: false, seen: new Set(), rowLags: [], frameStaleness: [], longTasks: [], paints: [], newestPainted: -1, frames: 0, maxSeqSeen: -1 };
  const T = /t=(\d+(?:\.\d+)?)/;
  const ROWS = '[data-testid="timeline-table"] [data-seq]';
  const scan = () => {
    if (!state.armed) return;
    const now = Date.now();
    for (const row of document.querySelectorAll(ROWS)) {
      const seq = Number(row.dataset.seq);
      if (state.seen.has(seq)) continue;
      const preview = row.querySelector('.preview');
      const match = preview ? T.exec(preview.textContent || '') : null;
      if (!match) continue;
      state.seen.add(seq);
      state.rowLags.push(now - (state.epoch + Number(match[1])));
      if (seq > state.maxSeqSeen) state.maxSeqSeen = seq;
    }
  };
  const frame = () => {
    if (state.armed && state.streaming) {
      scan();
      state.frames++;
      let newest = -1;
      for (const cell of document.querySelectorAll(ROWS + ' .preview')) {
        const match = T.exec(cell.textContent || '');
        if (match) newest = Math.max(newest, Number(match[1]));
      }
      if (newest >= 0) state.frameStaleness.push(Date.now() - (state.epoch + newest));
    }
    if (state.armed) {
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
  const start = () => {
    new MutationObserver(scan).observe(document.documentElement, { childList: true, subtree: true, characterData: true });
    requestAnimationFrame(frame);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  window.__rendererRate = {
    settled,
    arm(epoch) { state.epoch = epoch; state.armed = true; state.streaming = true; },
    streamEnded() { state.streaming = false; },
    collect() {
      scan();
      state.armed = false;
      return { rowLags: state.rowLags, frameStaleness: state.frameStaleness, longTasks: state.longTasks, paints: state.paints, frames: state.frames, maxSeqSeen: state.maxSeqSeen };
    },
  };
})();
`;
