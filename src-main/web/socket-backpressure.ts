/**
 * Whether any page's WebSocket is backed up. A browser stops reading a socket whose page does
 * not take its messages (a page paused in DevTools, a frozen tab), and what the host sends on
 * then waits in the host's memory: a live stream at 50,000 envelopes/s into a paused page grew
 * the host by about 10 MB a second (docs/performance.md, "Stop 43"). A socket is backed up once
 * more than `highWaterBytes` wait to be sent, and until fewer than `lowWaterBytes` do; while any
 * is, the host holds row batches back (SessionService.holdBatches), whose changes wait in the
 * session store at no cost and drain once the page reads again. A socket backed up for a
 * minute is given up: the host closes it, and the page, once it runs again, says the connection
 * closed and to reload.
 */

/** What is watched of a socket: `ws`'s WebSocket has both. */
export interface WatchedSocket {
  readonly bufferedAmount: number;
  readonly readyState: number;
}

export interface BackpressureOptions {
  /** Called with true when the first socket backs up, with false when none is backed up any more. */
  onChange: (backedUp: boolean) => void;
  highWaterBytes?: number;
  lowWaterBytes?: number;
  /** How often a backed-up socket is looked at again. */
  pollMs?: number;
  /**
   * A socket backed up this long is given up (`onStuck`), so that a tab the browser froze does
   * not hold every other page's batches back for good.
   */
  stuckMs?: number;
  onStuck?: (socket: WatchedSocket) => void;
}

export interface Backpressure {
  /** Something was just sent on `socket`. */
  sent(socket: WatchedSocket): void;
  /** `socket` closed: it holds nothing back any more. */
  closed(socket: WatchedSocket): void;
  dispose(): void;
}

export const HIGH_WATER_BYTES = 1024 * 1024;
export const LOW_WATER_BYTES = 256 * 1024;
const POLL_MS = 50;
export const STUCK_MS = 60_000;
const OPEN = 1;

export function createBackpressure(options: BackpressureOptions): Backpressure {
  const high = options.highWaterBytes ?? HIGH_WATER_BYTES;
  const low = options.lowWaterBytes ?? LOW_WATER_BYTES;
  const backedUp = new Map<WatchedSocket, ReturnType<typeof setInterval>>();

  const release = (socket: WatchedSocket): void => {
    const timer = backedUp.get(socket);
    if (timer === undefined) return;
    clearInterval(timer);
    backedUp.delete(socket);
    if (backedUp.size === 0) options.onChange(false);
  };

  return {
    sent(socket) {
      if (backedUp.has(socket) || socket.bufferedAmount <= high) return;
      // `ws` says nothing when its buffer drains, so a backed-up socket is looked at on a timer.
      const since = Date.now();
      const timer = setInterval(() => {
        if (socket.readyState !== OPEN || socket.bufferedAmount < low) release(socket);
        else if (Date.now() - since >= (options.stuckMs ?? STUCK_MS)) {
          release(socket);
          options.onStuck?.(socket);
        }
      }, options.pollMs ?? POLL_MS);
      backedUp.set(socket, timer);
      if (backedUp.size === 1) options.onChange(true);
    },
    closed: release,
    dispose() {
      for (const timer of backedUp.values()) clearInterval(timer);
      backedUp.clear();
    },
  };
}
