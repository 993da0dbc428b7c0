import { useEffect, useState } from 'react';
import { errorMessage } from '../model/errors';

export interface AsyncState<T> {
  readonly value: T | undefined;
  readonly error: string | null;
  readonly loading: boolean;
}

/**
 * Loads data for a key (null: nothing to load) and keeps the result until the key changes;
 * stale answers are dropped. Failures are returned to be shown in place, never swallowed.
 */
export function useAsync<T>(key: string | null, load: () => Promise<T>): AsyncState<T> {
  const [state, setState] = useState<{ key: string | null } & AsyncState<T>>({
    key: null,
    value: undefined,
    error: null,
    loading: false,
  });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    setState((s) => ({ key, value: s.key === key ? s.value : undefined, error: null, loading: true }));
    load().then(
      (value) => current && setState({ key, value, error: null, loading: false }),
      (error: unknown) => current && setState({ key, value: undefined, error: errorMessage(error), loading: false }),
    );
    return () => {
      current = false;
    };
    // `load` is a fresh closure each render; the key says when to load again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (key === null) return { value: undefined, error: null, loading: false };
  return state.key === key ? state : { value: undefined, error: null, loading: true };
}
