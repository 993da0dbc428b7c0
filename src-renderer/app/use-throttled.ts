import { useEffect, useRef, useState } from 'react';

/**
 * `value`, updated at most once per `ms` (0: at once); the latest value always lands. For
 * views whose update cost grows with the data (lanes, a million-row virtualizer).
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (ms <= 0 || Object.is(value, shown)) return;
    const wait = Math.max(0, last.current + ms - Date.now());
    if (wait === 0) {
      last.current = Date.now();
      setShown(value);
      return;
    }
    const timer = window.setTimeout(() => {
      last.current = Date.now();
      setShown(value);
    }, wait);
    return () => window.clearTimeout(timer);
  }, [value, shown, ms]);
  return ms <= 0 ? value : shown;
}
