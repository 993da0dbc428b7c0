import { OPEN, type WatchedChannel } from '../hosts/backpressure';

/**
 * An app window's page as the backpressure sees it (hosts/backpressure.ts). IPC tells main
 * nothing of what waits in a renderer, so the preload acknowledges each contract event as it
 * takes it (EVENT_ACK_CHANNEL, whether or not the page listens to that event), and the events
 * sent to the window and not yet acknowledged are its backlog. A page paused in DevTools or
 * frozen runs no script, the preload's neither: its count grows while it takes nothing. Given
 * up after a minute of that (`giveUp`), it counts for nothing until it acknowledges an event
 * again, so a frozen window holds the other windows' batches back once, for a minute at most.
 */
export class AckedPage implements WatchedChannel {
  private unacked = 0;
  private givenUp = false;

  constructor(private readonly isOpen: () => boolean) {}

  get bufferedAmount(): number {
    return this.givenUp ? 0 : this.unacked;
  }

  get readyState(): number {
    return this.isOpen() ? OPEN : CLOSED;
  }

  /** An event was sent to the window. */
  sent(): void {
    this.unacked++;
  }

  /** The window's preload took an event: it runs, and counts again if it had been given up. */
  acked(): void {
    if (this.unacked > 0) this.unacked--;
    this.givenUp = false;
  }

  giveUp(): void {
    this.givenUp = true;
  }
}

/** `WebSocket.CLOSED`: the state of a window that is gone. */
const CLOSED = 3;

/**
 * Events a window may leave unacknowledged before row batches are held back, and under which
 * they flow again: a page that keeps up acknowledges within milliseconds (a few at most in
 * flight), and batches come at most ten a second, so 32 is seconds behind.
 */
export const ACK_HIGH_WATER = 32;
export const ACK_LOW_WATER = 8;
