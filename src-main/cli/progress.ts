import type { CliIo } from './io';

/** What a long command has got through so far. */
export interface ProgressCounts {
  bytes: number;
  envelopes: number;
}

/**
 * Whether a progress line may be drawn on this stream: only on a terminal. Piped or redirected
 * output (a CI log, `| less`, a file) would keep every redraw as a line of its own, and a
 * terminal that says it cannot move the cursor (`TERM=dumb`) would too.
 */
export function showsProgress(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

/** A run shorter than this never shows a line: it would only flicker. */
const SHOW_AFTER_MS = 500;
const REDRAW_MS = 250;

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;
}

/** `1,234,567` (the grouping every locale of a terminal reads). */
function grouped(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** The status line: bytes (of the total when known), envelopes, and the rate of each since the start. */
export function progressLine(counts: ProgressCounts, elapsedMs: number, totalBytes: number): string {
  const seconds = Math.max(elapsedMs, 1) / 1000;
  const done =
    totalBytes > 0
      ? `${megabytes(counts.bytes)} of ${megabytes(totalBytes)} (${Math.min(100, Math.floor((100 * counts.bytes) / totalBytes))} %)`
      : megabytes(counts.bytes);
  const envelopes = `${grouped(counts.envelopes)} envelope${counts.envelopes === 1 ? '' : 's'}`;
  return `${done} · ${megabytes(counts.bytes / seconds)}/s · ${envelopes} · ${grouped(counts.envelopes / seconds)}/s`;
}

export interface Progress {
  /** What the command has got through: it adds to these as it goes. Undefined when no line is drawn (nothing to count). */
  readonly counts: ProgressCounts | undefined;
  /** Redraws now if a redraw is due (the timer calls it; a test calls it with its own clock). */
  tick(): void;
  /** Clears the line until the next redraw: what the command prints starts on a clean line. */
  clear(): void;
  /** Clears the line for good. */
  stop(): void;
}

/**
 * A progress line on the terminal while a long command adds to its `counts` (or while `read`
 * says how far it got), redrawn every quarter second from the first half second on. Without
 * `io.progress` (not a terminal, or a test's io) it draws nothing, counts nothing and sets no
 * timer.
 */
export function startProgress(
  io: CliIo,
  options: {
    totalBytes?: number;
    /** Where the counts come from when the command does not add to `counts` itself (a live recording's). */
    read?: () => ProgressCounts;
    now?: () => number;
    timer?: boolean;
  } = {},
): Progress {
  const draw = io.progress;
  if (!draw) return { counts: undefined, tick: () => undefined, clear: () => undefined, stop: () => undefined };
  const counts: ProgressCounts = { bytes: 0, envelopes: 0 };
  const now = options.now ?? (() => performance.now());
  const start = now();
  let shown = false;
  const tick = (): void => {
    const elapsed = now() - start;
    if (elapsed < SHOW_AFTER_MS) return;
    shown = true;
    draw(progressLine(options.read?.() ?? counts, elapsed, options.totalBytes ?? 0));
  };
  const timer = options.timer === false ? undefined : setInterval(tick, REDRAW_MS);
  // The line must never keep a finished command alive.
  timer?.unref();
  const clear = (): void => {
    if (shown) draw(null);
    shown = false;
  };
  return {
    counts,
    tick,
    clear,
    stop() {
      if (timer) clearInterval(timer);
      clear();
    },
  };
}
