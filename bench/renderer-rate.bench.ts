import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { chromium } from '@playwright/test';
import { WebSocket } from 'ws';
import { socketUrlFor } from '../src-shared/contract/browser-host';
import { INSPECTOR_CONTRACT, INSPECTOR_NAMES } from '../src-shared/contract/inspector';
import { createSocketClient } from '../src-shared/contract/socket-client';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../src-main/testing/chromium';
import { startWebApp } from '../src-main/web/web-app';
import { PROBE_SCRIPT, type ProbeSamples } from './renderer-rate-probe';
import type { BenchTable } from './run';

/**
 * Issue 4's budget: "at 10,000 envelopes/s rows appear within 250 ms of arrival and no
 * renderer task exceeds 100 ms". The browser host (sessions in its worker, as `npm start`
 * runs it) serves the built renderer (out/renderer) to Debian's chromium; a loopback SSE
 * server on its own thread sends JSON text envelopes stamped `t=<ms since start>` at a fixed
 * rate for a few seconds; the session is connected through the contract and the page,
 * showing its timeline and following the newest rows, measures row lag and long tasks
 * (see renderer-rate-probe.ts). A timing measurement on a shared machine: the notes carry
 * the load average (`npm run bench -- renderer-rate`).
 */

const ROW_LAG_BUDGET_MS = 250;
const LONG_TASK_BUDGET_MS = 100;
const STREAM_SECONDS = 5;
const AGENT = '11111111-1111-4111-8111-111111111111';
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER_DIR = join(ROOT, 'out', 'renderer');

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

/** Polls the session until it holds `count` envelopes (the sender's, plus meta_init), up to 20 s. */
async function waitForEnvelopes(client: Client, sessionId: string, count: number): Promise<boolean> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { summary } = await client.service.getSession({ sessionId });
    if (summary.envelopes >= count) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

async function measure(rate: number): Promise<{ row: (string | number)[]; met: boolean; load: string; startup: string }> {
  const app = await startWebApp({ rendererDir: RENDERER_DIR, demoAgent: false, sessionsInWorker: true });
  const client = createSocketClient(INSPECTOR_CONTRACT, INSPECTOR_NAMES, new WebSocket(socketUrlFor(app.url)));
  const sender = new Worker(SENDER, { eval: true, workerData: { rate, seconds: STREAM_SECONDS, agent: AGENT } });
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
    const startupTasks = await page.evaluate(() => (globalThis as unknown as { __rendererRate: { settled(ms: number): Promise<number[]> } }).__rendererRate.settled(1000));

    const epoch = Date.now() + 300;
    await page.evaluate((at) => (globalThis as unknown as { __rendererRate: { arm(at: number): void } }).__rendererRate.arm(at), epoch);
    const loadBefore = loadavg()[0] ?? 0;
    sender.postMessage({ epoch });
    const [done] = (await once(sender, 'message')) as [SenderDone];
    const loadAfter = loadavg()[0] ?? 0;
    await page.evaluate(() => (globalThis as unknown as { __rendererRate: { streamEnded(): void } }).__rendererRate.streamEnded());
    // Every envelope reached the session; what the table shows is what the probe sampled.
    const allArrived = await waitForEnvelopes(client, id, done.sent + 1);
    const samples = await page.evaluate(() => (globalThis as unknown as { __rendererRate: { collect(): ProbeSamples } }).__rendererRate.collect());
    const { summary } = await client.service.getSession({ sessionId: id });

    const lags = sortedCopy(samples.rowLags);
    const stale = sortedCopy(samples.frameStaleness);
    const tasks = sortedCopy(samples.longTasks);
    const maxTask = round(tasks.at(-1) ?? 0);
    const overBudget = tasks.filter((d) => d > LONG_TASK_BUDGET_MS).length;
    const met = allArrived && lags.length > 0 && (lags.at(-1) ?? Infinity) <= ROW_LAG_BUDGET_MS && overBudget === 0;
    return {
      met,
      load: `${rate}/s: ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      startup: `${rate}/s: ${startupTasks.length} long tasks, longest ${round(Math.max(0, ...startupTasks))} ms`,
      row: [
        `${rate}/s`,
        `${done.sent} in ${done.ms} ms (${done.writes} writes)`,
        `${summary.envelopes}${allArrived ? '' : ' (not all envelopes arrived)'}`,
        lags.length,
        round(percentile(lags, 0.5)),
        round(percentile(lags, 0.95)),
        round(lags.at(-1) ?? 0),
        `${round(percentile(stale, 0.95))} / ${round(stale.at(-1) ?? 0)}`,
        samples.frames,
        tasks.length,
        overBudget,
        maxTask,
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

export async function run(): Promise<BenchTable[]> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new Error('out/renderer is missing: run `npx electron-vite build` first');
  const results = [await measure(10_000), await measure(2_000)];
  return [
    {
      title: `Renderer at a fixed envelope rate (${STREAM_SECONDS} s stream, browser host + chromium, timeline following)`,
      columns: ['rate', 'sent', 'session envelopes', 'rows seen', 'lag p50 ms', 'lag p95 ms', 'lag max ms', 'newest-row age p95/max ms', 'frames', 'long tasks', `> ${LONG_TASK_BUDGET_MS} ms`, 'longest task ms', 'budget'],
      rows: results.map((r) => r.row),
      notes: [
        `Lag: from the sender writing an envelope to its row's delta cell first showing in the DOM. Budget: every seen row within ${ROW_LAG_BUDGET_MS} ms and no long task over ${LONG_TASK_BUDGET_MS} ms.`,
        'Rows the following table scrolled past between two renders never reach the DOM and are not counted ("rows seen").',
        `1-min load average before → after each stream (2 shared cores): ${results.map((r) => r.load).join('; ')}.`,
        `Page startup before each stream, not counted above (page load, first render, Monaco's one-time evaluation): ${results.map((r) => r.startup).join('; ')}.`,
      ],
    },
  ];
}
