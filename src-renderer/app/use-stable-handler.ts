import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * A function that stays the same across renders and calls the latest `handler`: what a
 * memoised child (Checkbox) needs to skip the renders its parent does on every live batch.
 */
export function useStableHandler<A extends unknown[]>(handler: (...args: A) => void): (...args: A) => void {
  const latest = useRef(handler);
  useLayoutEffect(() => {
    latest.current = handler;
  });
  return useCallback((...args: A) => latest.current(...args), []);
}
