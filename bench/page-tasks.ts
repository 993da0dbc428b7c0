import type { Browser, Page } from '@playwright/test';

/**
 * The page's main-thread tasks from a Chromium trace, each with its wall time and its thread
 * (CPU) time. A long task's wall time on a loaded machine is mostly waiting for a core (other
 * processes, and the host decoding beside the page); its thread time is the page's own work,
 * what the renderer can shorten. The trace records only the task events (little overhead).
 */
export interface PageTask {
  /** Start, ms on the trace's clock. */
  readonly start: number;
  readonly wallMs: number;
  readonly cpuMs: number;
}

const CATEGORIES = ['toplevel'];

interface TraceEvent {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly tid: number;
  readonly ts: number;
  readonly dur?: number;
  readonly tdur?: number;
  readonly args?: { readonly name?: string };
}

export function startTaskTrace(browser: Browser, page: Page): Promise<void> {
  return browser.startTracing(page, { categories: CATEGORIES });
}

/** Stops the trace and returns the tasks of the page's main thread (the renderer thread with the most tasks). */
export async function stopTaskTrace(browser: Browser): Promise<PageTask[]> {
  const buffer = await browser.stopTracing();
  const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const mainThreads = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, PageTask[]>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph !== 'X' || e.name !== 'ThreadControllerImpl::RunTask' || !mainThreads.has(thread)) continue;
    const list = byThread.get(thread) ?? [];
    list.push({ start: e.ts / 1000, wallMs: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? 0) / 1000 });
    byThread.set(thread, list);
  }
  return [...byThread.values()].sort((a, b) => b.length - a.length)[0] ?? [];
}
