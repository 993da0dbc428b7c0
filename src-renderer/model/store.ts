import type { ReadableStore } from './types';

/** A writable store of immutable snapshots; listeners run after every change. */
export interface Store<T> extends ReadableStore<T> {
  readonly set: (next: T) => void;
  readonly update: (change: (current: T) => T) => void;
}

export function createStore<T>(initial: T): Store<T> {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  const notify = (): void => {
    for (const listener of [...listeners]) listener();
  };
  return {
    // Arrow functions: stable references that can be passed to useSyncExternalStore as they are.
    getSnapshot: () => snapshot,
    subscribe: (listener) => {
      const entry = (): void => listener();
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    set: (next) => {
      if (Object.is(next, snapshot)) return;
      snapshot = next;
      notify();
    },
    update: (change) => {
      const next = change(snapshot);
      if (Object.is(next, snapshot)) return;
      snapshot = next;
      notify();
    },
  };
}
