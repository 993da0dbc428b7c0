/**
 * The in-page half of the renderer-open bench (plain JavaScript text for `addInitScript`,
 * like renderer-rate-probe.ts): the time of the Enter key in the path field, the time the
 * first timeline row reaches the DOM, and the long tasks from the key press on.
 * `settled(ms)`: see page-settled.ts.
 */
import { SETTLED_SNIPPET } from './page-settled';

export interface OpenProbeSamples {
  enterAt: number;
  firstRowAt: number;
  longTasks: number[];
}

export const OPEN_PROBE_SCRIPT = String.raw`
(() => {${SETTLED_SNIPPET}
  const state = { enterAt: 0, firstRowAt: 0, longTasks: [] };
  new PerformanceObserver((list) => {
    if (state.enterAt > 0) for (const entry of list.getEntries()) state.longTasks.push(entry.duration);
  }).observe({ type: 'longtask' });
  addEventListener('click', () => {
    if (state.enterAt === 0) state.enterAt = Date.now();
  }, true);
  const watch = new MutationObserver(() => {
    if (state.enterAt === 0 || state.firstRowAt > 0) return;
    if (document.querySelector('[data-testid="timeline-table"] [data-seq]')) {
      state.firstRowAt = Date.now();
      watch.disconnect();
    }
  });
  const start = () => watch.observe(document.documentElement, { childList: true, subtree: true });
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
  window.__rendererOpen = {
    settled,
    collect() {
      return { enterAt: state.enterAt, firstRowAt: state.firstRowAt, longTasks: state.longTasks };
    },
  };
})();
`;
