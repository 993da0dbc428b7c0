/**
 * The in-page half of the renderer-open bench (plain JavaScript text for `addInitScript`,
 * like renderer-rate-probe.ts): the time the file was chosen (the click on a recent file, or
 * the file input's change when it is uploaded), the time the first timeline row reaches the
 * DOM, the time the progress bar first shows, the time the session's state badge last changed (it
 * says the session is complete once main decoded everything), and the long tasks from the
 * click on, with their start times. `settled(ms)`: see page-settled.ts.
 */
import { SETTLED_SNIPPET } from './page-settled';

export interface OpenProbeSamples {
  clickAt: number;
  firstRowAt: number;
  /** 0: the progress bar never showed. */
  progressAt: number;
  stateText: string;
  stateChangedAt: number;
  /** [start ms after the click, duration ms]. */
  longTasks: [number, number][];
}

export const OPEN_PROBE_SCRIPT = String.raw`
(() => {${SETTLED_SNIPPET}
  const state = { clickAt: 0, clickPerf: 0, firstRowAt: 0, progressAt: 0, stateText: '', stateChangedAt: 0, longTasks: [] };
  new PerformanceObserver((list) => {
    if (state.clickAt === 0) return;
    for (const entry of list.getEntries()) state.longTasks.push([entry.startTime - state.clickPerf, entry.duration]);
  }).observe({ type: 'longtask' });
  const chosen = () => {
    if (state.clickAt !== 0) return;
    state.clickAt = Date.now();
    state.clickPerf = performance.now();
  };
  addEventListener('click', chosen, true);
  addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type === 'file') chosen();
  }, true);
  const watch = new MutationObserver(() => {
    if (state.clickAt === 0) return;
    if (state.firstRowAt === 0 && document.querySelector('[data-testid="timeline-table"] [data-seq]')) state.firstRowAt = Date.now();
    if (state.progressAt === 0 && document.querySelector('[data-testid="task-progress"]')) state.progressAt = Date.now();
    const badge = document.querySelector('[data-testid="session-state"]');
    const text = badge ? badge.textContent || '' : '';
    if (text !== state.stateText) {
      state.stateText = text;
      state.stateChangedAt = Date.now();
    }
  });
  const start = () => watch.observe(document.documentElement, { childList: true, subtree: true, characterData: true });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  window.__rendererOpen = {
    settled,
    collect() {
      return { clickAt: state.clickAt, firstRowAt: state.firstRowAt, progressAt: state.progressAt, stateText: state.stateText, stateChangedAt: state.stateChangedAt, longTasks: state.longTasks };
    },
  };
})();
`;
