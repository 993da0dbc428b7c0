/**
 * Whether any page's channel is backed up. A page that does not take its messages (paused in
 * DevTools, a frozen tab or window) leaves what the host sends on waiting: in the browser
 * host's memory, on its WebSocket (a live stream at 50,000 envelopes/s into a paused page grew
 * the host by about 10 MB a second, docs/performance.md, "Stop 43"), or in the Electron
 * renderer's IPC queue. A channel is backed up once more than `highWater` waits to be taken,
 * and until less than `lowWater` does; while any is, the host holds row batches back
 * (SessionService.holdBatches), whose changes wait in the session store at no cost and drain
 * once the page takes its messages again. A channel backed up for a minute is given up
 * (`onStuck`: the browser host closes the socket; the desktop app stops counting the window
 * until it answers again), so that one frozen page does not hold the others back for good.
 */

/**
 * What is watched of a page's channel: how much waits to be taken (`ws`'s WebSocket: bytes
 * buffered; an Electron window: events its preload has not acknowledged, event-acks.ts) and
 * whether it is open.
 */
export interface WatchedChannel {
  readonly bufferedAmount: number;
  readonly readyState: number;
}

export interface BackpressureOptions {
  /** Called with true when the first channel backs up, with false when none is backed up any more. */
  onChange: (backedUp: boolean) => void;
  /** In the unit of the channel's `bufferedAmount` (default: bytes of a socket, HIGH_WATER_BYTES, LOW_WATER_BYTES). */
  highWater?: number;
  lowWater?: number;
  /** How often a backed-up channel is looked at again. */
  pollMs?: number;
  /**
   * A channel backed up this long is given up (`onStuck`), so that a page that froze does
   * not hold every other page's batches back for good.
   */
  stuckMs?: number;
  onStuck?: (channel: WatchedChannel) => void;
}

export interface Backpressure {
  /** Something was just sent on `channel`. */
  sent(channel: WatchedChannel): void;
  /** `channel` closed: it holds nothing back any more. */
  closed(channel: WatchedChannel): void;
  dispose(): void;
}

export const HIGH_WATER_BYTES = 1024 * 1024;
export const LOW_WATER_BYTES = 256 * 1024;
const POLL_MS = 50;
export const STUCK_MS = 60_000;
/** `WebSocket.OPEN`: the state an open channel reports. */
export const OPEN = 1;

export function createBackpressure(options: BackpressureOptions): Backpressure {
  const high = options.highWater ?? HIGH_WATER_BYTES;
  const low = options.lowWater ?? LOW_WATER_BYTES;
  const backedUp = new Map<WatchedChannel, ReturnType<typeof setInterval>>();

  const release = (channel: WatchedChannel): void => {
    const timer = backedUp.get(channel);
    if (timer === undefined) return;
    clearInterval(timer);
    backedUp.delete(channel);
    if (backedUp.size === 0) options.onChange(false);
  };

  return {
    sent(channel) {
      if (backedUp.has(channel) || channel.bufferedAmount <= high) return;
      // Neither `ws` nor IPC says when a backlog drains, so a backed-up channel is looked at on a timer.
      const since = Date.now();
      const timer = setInterval(() => {
        if (channel.readyState !== OPEN || channel.bufferedAmount < low) release(channel);
        else if (Date.now() - since >= (options.stuckMs ?? STUCK_MS)) {
          release(channel);
          options.onStuck?.(channel);
        }
      }, options.pollMs ?? POLL_MS);
      backedUp.set(channel, timer);
      if (backedUp.size === 1) options.onChange(true);
    },
    closed: release,
    dispose() {
      for (const timer of backedUp.values()) clearInterval(timer);
      backedUp.clear();
    },
  };
}
