import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../src-main/testing/chromium';
import { startWebApp } from '../src-main/web/web-app';
import { writeFixtureRecording } from './recordings';
import { OPEN_PROBE_SCRIPT, type OpenProbeSamples } from './renderer-open-probe';
import { startTaskTrace, stopTaskTrace } from './page-tasks';
import { runningChildrenCpuMs } from './timing';
import type { BenchOptions, BenchTable } from './run';

/**
 * Opening a large recording in the app: "first screen of rows within 0.5 s of choosing the
 * file, the whole session decoded with blocks and diagnostics within 3 s, no renderer task
 * over 50 ms". A recording of 100 MB (10 MB with --quick; upstream fixtures of one format
 * repeated, in 64 KB chunks) is opened the way a user does it in the browser host, with
 * sessions in its worker as `npm start` runs it, in Debian's chromium: from the Connect
 * view's recent files (renderer-upload measures the same file uploaded). Timed in the page: from
 * the click to the first timeline row in the DOM, and to the session's state badge showing
 * it complete (main has decoded everything: blocks and diagnostics are built as it decodes);
 * the long tasks the page had meanwhile.
 */

const MB = 1024 * 1024;
const FIRST_ROWS_BUDGET_MS = 500;
const LOADED_BUDGET_MS = 3000;
const LONG_TASK_BUDGET_MS = 50;
const FORMATS = ['json', 'xml'] as const;
/** BENCH_RENDERER_DIR: another build of the renderer, to compare two in the same conditions. */
const RENDERER_DIR =
  process.env['BENCH_RENDERER_DIR'] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'out', 'renderer');

type Probe = { __rendererOpen: { settled(ms: number): Promise<void>; collect(): OpenProbeSamples } };

async function measure(path: string, format: string, fileBytes: number): Promise<(string | number)[]> {
  // Opened by path, from the recent files: the path a desktop user takes (uploads: renderer-upload).
  const recentFilesPath = `${path}.recent.json`;
  await writeFile(recentFilesPath, JSON.stringify([path]));
  const app = await startWebApp({
    rendererDir: RENDERER_DIR,
    demoAgent: false,
    sessionsInWorker: true,
    recentFilesPath,
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(OPEN_PROBE_SCRIPT);
    const url = new URL(app.url);
    url.searchParams.set('autoconnect', '0');
    await page.goto(url.href);
    const recent = page.locator('.recent-file', { hasText: path });
    await recent.waitFor();
    // Startup work (Monaco's first load among it) is over before the file opens.
    await page.evaluate(() => (globalThis as unknown as Probe).__rendererOpen.settled(1000));
    // A click by coordinates: Playwright's checks before a locator's click are page tasks too.
    const box = await recent.boundingBox();
    if (!box) throw new Error('the recent file is not on screen');
    await startTaskTrace(browser, page);
    const hostCpuStart = process.cpuUsage();
    const browserCpuStart = runningChildrenCpuMs();
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('[data-testid="timeline-table"] [data-seq="0"]').waitFor({ timeout: 30_000 });
    const deadline = Date.now() + 120_000;
    let summary = (await app.service.listSessions())[0];
    while (summary?.state !== 'complete' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      summary = (await app.service.listSessions())[0];
    }
    const hostCpu = process.cpuUsage(hostCpuStart);
    const browserCpuMs = runningChildrenCpuMs() - browserCpuStart;
    // The page hears of the end within a status interval; then nothing is left to change.
    await page.waitForTimeout(1000);
    const traced = await stopTaskTrace(browser);
    const samples = await page.evaluate(() => (globalThis as unknown as Probe).__rendererOpen.collect());
    const firstRows = samples.firstRowAt - samples.clickAt;
    const loaded = summary?.state === 'complete' ? samples.stateChangedAt - samples.clickAt : Number.NaN;
    const tasks = samples.longTasks.map(([, duration]) => duration).sort((a, b) => a - b);
    const longest = Math.round(tasks.at(-1) ?? 0);
    const longestCpu = Math.round(Math.max(0, ...traced.map((t) => t.cpuMs)));
    const pageCpuMs = traced.reduce((sum, t) => sum + t.cpuMs, 0);
    const verdict = [
      firstRows <= FIRST_ROWS_BUDGET_MS ? 'first rows met' : 'first rows MISSED',
      loaded <= LOADED_BUDGET_MS ? 'loaded met' : 'loaded MISSED',
      longest <= LONG_TASK_BUDGET_MS ? 'tasks met' : 'tasks MISSED',
    ].join(', ');
    return [
      format,
      `${(fileBytes / MB).toFixed(1)} MB`,
      summary?.envelopes ?? 0,
      Math.round(firstRows),
      Number.isNaN(loaded) ? 'not within 120 s' : (loaded / 1000).toFixed(2),
      tasks.length,
      tasks.filter((d) => d > LONG_TASK_BUDGET_MS).length,
      longest,
      longestCpu,
      ((hostCpu.user + hostCpu.system) / 1e6).toFixed(2),
      (pageCpuMs / 1000).toFixed(2),
      Number.isNaN(browserCpuMs) ? 'n/a' : (browserCpuMs / 1000).toFixed(2),
      verdict,
    ];
  } finally {
    await browser.close();
    await app.close();
  }
}

export async function run(options: BenchOptions): Promise<BenchTable[]> {
  if (!existsSync(join(RENDERER_DIR, 'index.html')))
    throw new Error('out/renderer is missing: run `npx electron-vite build` first');
  const fileBytes = (options.quick ? 10 : 100) * MB;
  const dir = await mkdtemp(join(tmpdir(), 'renderer-open-'));
  try {
    const rows: (string | number)[][] = [];
    for (const format of FORMATS) {
      const path = join(dir, `${format}.recording.ndjson`);
      const size = await writeFixtureRecording(path, format, fileBytes);
      rows.push(await measure(path, format, size));
    }
    return [
      {
        title: `Opening a ${fileBytes / MB} MB recording in the app (browser host + chromium, chosen from the recent files)`,
        columns: [
          'format',
          'file',
          'envelopes',
          'first rows ms',
          'loaded s',
          'long tasks',
          `> ${LONG_TASK_BUDGET_MS} ms`,
          'longest task ms',
          'longest task CPU ms',
          'host CPU s',
          'page CPU s',
          'browser CPU s',
          'budget',
        ],
        rows,
        notes: [
          `Budget: first rows ≤ ${FIRST_ROWS_BUDGET_MS} ms, loaded ≤ ${LOADED_BUDGET_MS / 1000} s, no long task over ${LONG_TASK_BUDGET_MS} ms.`,
          'First rows: from the click on the file to the first timeline row in the DOM. Loaded: to the state badge showing the session complete (main decoded every envelope, block and diagnostic). Both timed in the page.',
          `Long tasks: those of the page while the file loads (startup is over before the click). 1-min load average at the end: ${(loadavg()[0] ?? 0).toFixed(2)} (2 shared cores).`,
          "Longest task CPU: the most thread time any task of the page took (Chromium trace, page-tasks.ts); on a loaded machine a task's wall time is mostly waiting for a core, its thread time is the page's own work.",
          "Host CPU: the host process's CPU time from the click to the session complete: the session worker that decodes, the host's main thread, V8's helper threads. It leaves out the time the worker waits for a core, which the loaded time includes.",
          "Page CPU: the thread time of the page's main-thread tasks from the click to a second after the session completed (the trace's tasks). Browser CPU: every Chromium process's CPU time from the click to the session complete (the page's renderer with its compositor and raster threads, the GPU and browser processes; Linux only): with host CPU, what the two cores were asked for.",
        ],
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
