/**
 * Runs the diff of the pair of sessions the pickers show. Main computes one diff at a time
 * for the view: a pair picked while a comparison runs waits for it and then runs, and a result
 * (or failure) for a pair that is no longer wanted is dropped, so the view always ends up
 * showing the latest pair.
 */

export interface ComparePair {
  left: string;
  right: string;
  /** Align blocks across agents (the view's "Ignore agents"). */
  flattenAgents: boolean;
}

export function comparePairKey(pair: ComparePair): string {
  return `${pair.left}|${pair.right}|${pair.flattenAgents ? 'flat' : 'auto'}`;
}

export interface DiffRunnerCallbacks<R> {
  /** True when a comparison starts with none running, false when the last one settled. */
  onBusy(busy: boolean): void;
  /** The result for the pair wanted now. */
  onResult(pair: ComparePair, result: R): void;
  onError(pair: ComparePair, error: unknown): void;
}

export interface DiffRunner {
  /**
   * Compare this pair (null: none; a running comparison's result is then dropped). A pair
   * already compared is not compared again unless `again` is set.
   */
  want(pair: ComparePair | null, options?: { again?: boolean }): void;
}

export function createDiffRunner<R>(
  compute: (pair: ComparePair) => Promise<R>,
  callbacks: DiffRunnerCallbacks<R>,
): DiffRunner {
  let wanted: ComparePair | null = null;
  /** Key of the pair the last delivered result or failure was for. */
  let settledKey: string | null = null;
  let running = false;

  const isWanted = (pair: ComparePair): boolean => wanted !== null && comparePairKey(wanted) === comparePairKey(pair);

  const settle = (pair: ComparePair, deliver: () => void): void => {
    running = false;
    if (isWanted(pair)) {
      settledKey = comparePairKey(pair);
      deliver();
    }
    if (!pump()) callbacks.onBusy(false);
  };

  /** Starts the wanted comparison if none runs and it is not settled; true when one runs. */
  const pump = (): boolean => {
    if (running) return true;
    const pair = wanted;
    if (pair === null || comparePairKey(pair) === settledKey) return false;
    running = true;
    let computing: Promise<R>;
    try {
      computing = compute(pair);
    } catch (error) {
      computing = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    computing.then(
      (result) => settle(pair, () => callbacks.onResult(pair, result)),
      (error: unknown) => settle(pair, () => callbacks.onError(pair, error)),
    );
    return true;
  };

  return {
    want(pair, options = {}) {
      wanted = pair;
      if (options.again) settledKey = null;
      const wasRunning = running;
      if (pump() && !wasRunning) callbacks.onBusy(true);
    },
  };
}
