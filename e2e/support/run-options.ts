/**
 * What both Playwright runs (browser host, Electron) share: one worker, tests in file order
 * (the flows reuse one host), generous timeouts for a loaded 2-core machine, traces and
 * screenshots kept for failures.
 */
export const RUN_OPTIONS = {
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  forbidOnly: Boolean(process.env['CI']),
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
} as const;
