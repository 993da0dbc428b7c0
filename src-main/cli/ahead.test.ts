import { describe, expect, it } from 'vitest';
import { inOrderAhead } from './ahead';

/**
 * Waits `turns` turns of the event loop: tasks that finish in a chosen order without wall-clock
 * sleeps, so a loaded machine cannot reorder them.
 */
async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('inOrderAhead', () => {
  it('yields in order however the tasks finish, with at most the budget in flight (one always)', async () => {
    const weights = [3, 1, 1, 5, 1, 1];
    let inFlight = 0;
    let most = 0;
    const task = async (i: number): Promise<number> => {
      inFlight += weights[i]!;
      most = Math.max(most, inFlight);
      await turns(6 - i);
      inFlight -= weights[i]!;
      return i * 10;
    };
    const out: number[] = [];
    for await (const result of inOrderAhead([0, 1, 2, 3, 4, 5], weights, 5, task)) out.push(result);
    expect(out).toEqual([0, 10, 20, 30, 40, 50]);
    expect(most).toBe(5);
  });

  it('starts an item heavier than the budget on its own', async () => {
    const started: number[] = [];
    const out: number[] = [];
    for await (const result of inOrderAhead([0, 1], [10, 10], 5, async (i) => (started.push(i), await turns(1), i)))
      out.push(result);
    expect(out).toEqual([0, 1]);
    expect(started).toEqual([0, 1]);
  });

  it('throws a failure in its turn, after the results before it, and a failure started early is not unhandled', async () => {
    const out: number[] = [];
    const run = async (): Promise<void> => {
      for await (const result of inOrderAhead([0, 1, 2], [1, 1, 1], 10, async (i) => {
        if (i === 2) throw new Error('item 2 failed');
        await turns(3);
        return i;
      }))
        out.push(result);
    };
    await expect(run()).rejects.toThrow('item 2 failed');
    expect(out).toEqual([0, 1]);
  });
});
