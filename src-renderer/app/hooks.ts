import { useEffect, useSyncExternalStore } from 'react';
import type { AppModel, ReadableStore, SessionData, SessionPart } from '../model/types';

/** Thin adapter from a model store to React: re-renders when the snapshot changes. */
export function useStore<T>(store: ReadableStore<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}

/**
 * One value read from a store's snapshot: re-renders only when that value changes (a
 * primitive, or an object the store keeps as it was), not on every change of the store.
 */
export function useStoreValue<T, R>(store: ReadableStore<T>, read: (snapshot: T) => R): R {
  return useSyncExternalStore(store.subscribe, () => read(store.getSnapshot()));
}

/** The active session's data, or null when no session is active. */
export function useActiveSession(app: AppModel): SessionData | null {
  const activeId = useStoreValue(app.sessions, (sessions) => sessions.activeId);
  return useSessionData(app, activeId);
}

const NO_SESSION: ReadableStore<null> = { getSnapshot: () => null, subscribe: () => () => {} };

/** Whether the session is a HAR file waiting for the user to choose its entries (false for none). */
export function useChoosingHarEntries(app: AppModel, sessionId: string | null): boolean {
  const store = sessionId === null ? NO_SESSION : app.session(sessionId);
  return useStoreValue<SessionData | null, boolean>(store, (data) => data?.summary.choosingHarEntries === true);
}

/** One session's data (null for a null id). */
export function useSessionData(app: AppModel, sessionId: string | null): SessionData | null {
  const store = sessionId === null ? NO_SESSION : app.session(sessionId);
  return useStore<SessionData | null>(store);
}

/** Keeps a session's blocks or findings current while the calling view is mounted (and `enabled`). */
export function useWatchSession(app: AppModel, sessionId: string | null, part: SessionPart, enabled = true): void {
  useEffect(
    () => (sessionId !== null && enabled ? app.watchSession(sessionId, part) : undefined),
    [app, sessionId, part, enabled],
  );
}
