/**
 * A snippet shared by the in-page probes: `settled(ms)` resolves once the page has run no
 * long task for `ms` (its startup, Monaco's one-time evaluation among it, is over), and
 * `startupLongTasks` keeps the durations of the long tasks before that.
 */
export const SETTLED_SNIPPET = String.raw`
  const startup = { lastLongTask: performance.now(), longTasks: [], over: false };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      startup.lastLongTask = performance.now();
      if (!startup.over) startup.longTasks.push(entry.duration);
    }
  }).observe({ type: 'longtask' });
  const settled = (ms) => new Promise((resolve) => {
    const check = () => {
      if (performance.now() - startup.lastLongTask < ms) return void setTimeout(check, 100);
      startup.over = true;
      resolve(startup.longTasks);
    };
    check();
  });
`;
