import { afterEach, describe, expect, it } from 'vitest';
import { createBackpressure, type Backpressure } from '../hosts/backpressure';
import { waitFor } from '../services/sessions/service-testing';
import { ACK_HIGH_WATER, ACK_LOW_WATER, AckedPage } from './event-acks';

/**
 * A desktop window's page behind on its events, as ipc.ts watches it: every event sent is
 * counted until the window's preload acknowledges it; a page that takes nothing holds row
 * batches back, and releases them once it catches up; one that stays frozen is given up.
 */

let watch: Backpressure | undefined;
afterEach(() => {
  watch?.dispose();
  watch = undefined;
});

function watched(stuckMs = 60_000) {
  const changes: boolean[] = [];
  const stuck: unknown[] = [];
  watch = createBackpressure({
    onChange: (held) => changes.push(held),
    highWater: ACK_HIGH_WATER,
    lowWater: ACK_LOW_WATER,
    pollMs: 5,
    stuckMs,
    onStuck: (page) => {
      stuck.push(page);
      (page as AckedPage).giveUp();
    },
  });
  const send = (page: AckedPage, n: number): void => {
    for (let i = 0; i < n; i++) {
      page.sent();
      watch?.sent(page);
    }
  };
  return { changes, stuck, send };
}

describe('a window that acknowledges its events', () => {
  it('that keeps up never holds anything back', () => {
    const { changes, send } = watched();
    const page = new AckedPage(() => true);
    for (let i = 0; i < 1000; i++) {
      send(page, 1);
      page.acked();
    }
    expect(changes).toEqual([]);
    expect(page.bufferedAmount).toBe(0);
  });

  it('that stops taking them holds batches back past the high water, and releases them once it catches up', async () => {
    const { changes, send } = watched();
    const page = new AckedPage(() => true);
    send(page, ACK_HIGH_WATER);
    expect(changes).toEqual([]);
    send(page, 1);
    expect(changes).toEqual([true]);
    // Still behind with the low water waiting: nothing changes until fewer do.
    for (let i = 0; i < ACK_HIGH_WATER + 1 - ACK_LOW_WATER; i++) page.acked();
    expect(page.bufferedAmount).toBe(ACK_LOW_WATER);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(changes).toEqual([true]);
    page.acked();
    await waitFor(() => (changes.length === 2 ? true : undefined), 'the release');
    expect(changes).toEqual([true, false]);
  });

  it('that closes while behind releases what it held', async () => {
    const { changes, send } = watched();
    let open = true;
    const page = new AckedPage(() => open);
    send(page, ACK_HIGH_WATER + 1);
    open = false;
    await waitFor(() => (changes.length === 2 ? true : undefined), 'the release');
    expect(changes).toEqual([true, false]);
  });

  it('that stays frozen is given up: not waited for, until it acknowledges an event again', async () => {
    const { changes, stuck, send } = watched(50);
    const page = new AckedPage(() => true);
    send(page, ACK_HIGH_WATER + 1);
    await waitFor(() => (stuck.length === 1 ? true : undefined), 'the page given up');
    expect(changes).toEqual([true, false]);
    // Sent on while frozen: it holds nothing back any more.
    send(page, 100);
    expect(changes).toEqual([true, false]);
    // It runs again and takes one event: what it still owes counts, so it is behind again until it drains.
    page.acked();
    send(page, 1);
    expect(changes).toEqual([true, false, true]);
    for (let i = 0; i < 2 * ACK_HIGH_WATER + 100; i++) page.acked();
    await waitFor(() => (changes.length === 4 ? true : undefined), 'the release');
    expect(page.bufferedAmount).toBe(0);
  });
});
