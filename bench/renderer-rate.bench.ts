import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { chromium, type Page } from '@playwright/test';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES } from '../src-shared/contract/inspector';
import { createSocketClient } from '../src-shared/contract/socket-client';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../src-main/testing/chromium';
import { startWebApp } from '../src-main/web/web-app';
import { PROBE_SCRIPT, type ProbeSamples } from './renderer-rate-probe';
import { startTaskTrace, stopTaskTrace } from './page-tasks';
import type { BenchOptions, BenchTable } from './run';

/**
 * The live firehose: "50,000 envelopes/s for 60 s — every envelope reaches the store,
 * arrival-in-main to row-painted ≤ 150 ms at p95, no renderer task over 50 ms after the first
 * second, memory growing only by the index". The browser host (sessions in its worker, as
 * `npm start` runs it) serves the built renderer (out/renderer) to Debian's chromium; a
 * loopback SSE server on its own thread sends JSON text envelopes stamped `t=<ms since
 * start>` at a fixed rate (5 s with --quick); the session is connected through the contract
 * and the page, showing its timeline and following the newest rows, records what it painted
 * and its long tasks (see renderer-rate-probe.ts). Arrival in main is the envelope's receive
 * time as main stamped it (its row's `receivedAt`, asked afterwards). A timing measurement on
 * a shared machine: the notes carry the load average (`npm run bench -- renderer-rate`).
 */

const PAINT_BUDGET_MS = 150;
const LONG_TASK_BUDGET_MS = 50;
/** Long tasks in the stream's first second (the table's first screens) are not counted. */
const GRACE_MS = 1000;
const RATE = 50_000;
const AGENT = '11111111-1111-4111-8111-111111111111';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** BENCH_RENDERER_DIR: another build of the renderer, to compare two in the same conditions. */
const RENDERER_DIR = process.env['BENCH_RENDERER_DIR'] ?? join(ROOT, 'out', 'renderer');

type Probe = {
  __rendererRate: { settled(ms: number): Promise<number[]>; arm(at: number): void; streamEnded(): void; collect(): ProbeSamples };
};

/**
 * The SSE sender, on its own event loop so the host's work never delays its clock. Replies
 * to any request with the stream head and a meta_init envelope, then waits for `{ epoch }`
 * and, from that wall-clock time on, writes every envelope that is due every ~2 ms, stamped
 * with the time it was written.
 */
const SENDER = String.raw`
const { createServer } = require('node:http');
const { parentPort, workerData } = require('node:worker_threads');
const { rate, seconds, agent } = workerData;
const total = Math.round(rate * seconds);
let response = null;
const envelope = (type, final, delta) => 'data: ' + JSON.stringify({ type, agent, final, delta }) + '\n\n';
const server = createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(envelope('meta_init', true, JSON.stringify({ format: 'json', user_query: 'renderer-rate bench', agent_uuid: agent, parent_agent_uuid: null, model: 'bench', message_history: [] })));
  response = res;
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', ({ epoch }) => {
  let sent = 0;
  let writes = 0;
  const tick = () => {
    const elapsed = Date.now() - epoch;
    if (elapsed < 0) return void setTimeout(tick, -elapsed);
    const due = Math.min(total, Math.floor((elapsed * rate) / 1000));
    let chunk = '';
    for (; sent < due; sent++) chunk += envelope('text', false, 't=' + elapsed + ' #' + sent);
    if (chunk) { response.write(chunk); writes++; }
    if (sent < total) return void setTimeout(tick, 2);
    response.end(envelope('text', true, 'end') + 'data: [DONE]\n\n');
    parentPort.postMessage({ done: true, sent, writes, ms: Date.now() - epoch });
    server.close();
  };
  tick();
});
`;

interface SenderDone {
  sent: number;
  writes: number;
  ms: number;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
const round = (ms: number): number => Math.round(ms);
const sortedCopy = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);

type Client = ReturnType<typeof createSocketClient<typeof INSPECTOR_CONTRACT>>;

/** Polls the session until it holds `count` envelopes (the sender's, plus meta_init), up to 60 s. */
async function waitForEnvelopes(client: Client, sessionId: string, count: number): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { summary } = await client.service.getSession({ sessionId });
    if (summary.envelopes >= count) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Arrival in main → painted, for each painted sample: main's receive time of the row, asked 16 at a time. */
async function paintLatencies(client: Client, sessionId: string, paints: readonly [number, number][]): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < paints.length; i += 16) {
    const part = paints.slice(i, i + 16);
    const pages = await Promise.all(part.map(([seq]) => client.service.getRows({ sessionId, start: seq, count: 1 })));
    pages.forEach((page, j) => {
      const row = page.rows[0];
      const painted = part[j]?.[1];
      if (row && painted !== undefined && row.receivedAt > 0) latencies.push(painted - row.receivedAt);
    });
  }
  return latencies;
}

/** The page's JavaScript heap after a collection, through the DevTools protocol. */
async function pageHeap(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

function hostMemory(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

async function measure(rate: number, seconds: number): Promise<{ row: (string | number)[]; load: string; startup: string }> {
  const app = await startWebApp({ rendererDir: RENDERER_DIR, demoAgent: false, sessionsInWorker: true });
  const client = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(app.url)));
  const sender = new Worker(SENDER, { eval: true, workerData: { rate, seconds, agent: AGENT } });
  // Listen before awaiting anything else: the worker posts its port as soon as it listens.
  const listening = once(sender, 'message') as Promise<[{ port: number }]>;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: [...CHROMIUM_ARGS] });
  try {
    const [{ port }] = await listening;
    await client.ready;
    const { id } = await client.service.connect({ url: `http://127.0.0.1:${port}/stream`, method: 'GET', headers: [], title: `renderer-rate ${rate}/s` });

    // The page loads after the session exists, so it selects it and shows its timeline.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.addInitScript(PROBE_SCRIPT);
    const url = new URL(app.url);
    url.searchParams.set('autoconnect', '0');
    await page.goto(url.href);
    await page.locator('[data-testid="timeline-table"] [data-seq="0"]').waitFor({ timeout: 15_000 });
    // The stream starts once the page's startup (Monaco's one-time evaluation among it) is over.
    const startupTasks = await page.evaluate(() => (globalThis as unknown as Probe).__rendererRate.settled(1000));
    const hostBefore = hostMemory();
    const pageBefore = await pageHeap(page);

    const epoch = Date.now() + 300;
    await page.evaluate((at) => (globalThis as unknown as Probe).__rendererRate.arm(at), epoch);
    await startTaskTrace(browser, page);
    const traceStart = Date.now();
    const loadBefore = loadavg()[0] ?? 0;
    sender.postMessage({ epoch });
    const [done] = (await once(sender, 'message')) as [SenderDone];
    const loadAfter = loadavg()[0] ?? 0;
    // Every envelope reached the session; the page paints the last rows within a moment.
    const allArrived = await waitForEnvelopes(client, id, done.sent + 1);
    await page.waitForTimeout(1000);
    await page.evaluate(() => (globalThis as unknown as Probe).__rendererRate.streamEnded());
    const traced = await stopTaskTrace(browser);
    const samples = await page.evaluate(() => (globalThis as unknown as Probe).__rendererRate.collect());
    const { summary } = await client.service.getSession({ sessionId: id });
    const hostGrowth = hostMemory() - hostBefore;
    const pageGrowth = (await pageHeap(page)) - pageBefore;

    const latencies = sortedCopy(await paintLatencies(client, id, samples.paints));
    const lags = sortedCopy(samples.rowLags);
    const tasks = sortedCopy(samples.longTasks.filter(([start]) => start >= epoch + GRACE_MS).map(([, duration]) => duration));
    const maxTask = round(tasks.at(-1) ?? 0);
    // The trace's clock is not the wall clock: its first task is taken as the trace's start.
    const traceZero = traced[0]?.start ?? 0;
    const maxTaskCpu = round(Math.max(0, ...traced.filter((t) => traceStart + (t.start - traceZero) >= epoch + GRACE_MS).map((t) => t.cpuMs)));
    const overBudget = tasks.filter((d) => d > LONG_TASK_BUDGET_MS).length;
    const p95 = percentile(latencies, 0.95);
    const met = allArrived && latencies.length > 0 && p95 <= PAINT_BUDGET_MS && overBudget === 0;
    const perEnvelope = (bytes: number): string => (summary.envelopes > 0 ? (bytes / summary.envelopes).toFixed(0) : '-');
    return {
      load: `${rate}/s: ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      startup: `${startupTasks.length} long tasks, longest ${round(Math.max(0, ...startupTasks))} ms`,
      row: [
        `${rate}/s × ${seconds} s`,
        `${done.sent} in ${done.ms} ms`,
        `${summary.envelopes}${allArrived ? '' : ' (not all arrived)'}`,
        latencies.length,
        round(percentile(latencies, 0.5)),
        round(p95),
        round(latencies.at(-1) ?? 0),
        round(percentile(lags, 0.95)),
        tasks.length,
        overBudget,
        maxTask,
        maxTaskCpu,
        perEnvelope(hostGrowth),
        perEnvelope(pageGrowth),
        met ? 'met' : 'MISSED',
      ],
    };
  } finally {
    await browser.close();
    await sender.terminate();
    client.close();
    await app.close();
  }
}

export async function run(options: BenchOptions): Promise<BenchTable[]> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new Error('out/renderer is missing: run `npx electron-vite build` first');
  const seconds = options.quick ? 5 : 60;
  const result = await measure(RATE, seconds);
  return [
    {
      title: `Live firehose: ${RATE.toLocaleString('en')} envelopes/s for ${seconds} s (browser host + chromium, timeline following)`,
      columns: ['rate', 'sent', 'session envelopes', 'paint samples', 'arrival→painted p50 ms', 'p95 ms', 'max ms', 'sender→DOM p95 ms', 'long tasks', `> ${LONG_TASK_BUDGET_MS} ms`, 'longest task ms', 'longest task CPU ms', 'host RSS B/envelope', 'page heap B/envelope', 'budget'],
      rows: [result.row],
      notes: [
        `Budget: every envelope in the session, arrival in main → row painted ≤ ${PAINT_BUDGET_MS} ms at p95, no long task over ${LONG_TASK_BUDGET_MS} ms after the stream's first second.`,
        'Arrival → painted: per animation frame that showed new rows, its newest row: from main stamping the envelope received to just after the frame painted. Sender → DOM: from the sender writing an envelope to its row first in the DOM, every row seen.',
        'Longest task CPU: the most thread time a task of the page took after the first second (Chromium trace, page-tasks.ts): its own work, without the waits for a core that stretch its wall time on a loaded machine.',
        'Memory: growth per envelope after the stream, after a collection: RSS of the host process (main thread and session worker) and the JavaScript heap of the page.',
        `1-min load average before → after the stream (2 shared cores): ${result.load}. Page startup before the stream, not counted: ${result.startup}.`,
      ],
    },
  ];
}
