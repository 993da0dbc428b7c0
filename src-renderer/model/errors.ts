import type { AppError } from './types';
import { createStore, type Store } from './store';

/** The most errors kept on screen; older ones scroll off (each is also dismissible). */
export const MAX_ERRORS = 20;

/** Errors shown in place: from main's onError events and from rejected commands. */
export class ErrorsModel {
  readonly store: Store<readonly AppError[]> = createStore<readonly AppError[]>([]);
  private nextId = 1;

  constructor(private readonly now: () => number) {}

  report(context: string, error: unknown, sessionId?: string, level: 'error' | 'info' = 'error'): AppError {
    const message = errorMessage(error);
    const entry: AppError = {
      id: this.nextId++,
      context,
      message,
      at: this.now(),
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(level === 'info' ? { level } : {}),
    };
    this.store.update((list) => {
      // The same message again (a retry loop, a repeated event) updates the time instead of stacking.
      const rest = list.filter((e) => !(e.context === context && e.message === message && e.sessionId === sessionId));
      return [...rest, entry].slice(-MAX_ERRORS);
    });
    return entry;
  }

  /**
   * The user moved to another session: errors about an action rather than a session (a file
   * that did not open, a refused connection) were about what they were doing then, so they go
   * instead of staying pinned above every session. A session's own errors stay with it.
   */
  leaveActions(): void {
    this.store.update((list) =>
      list.some((e) => e.sessionId === undefined) ? list.filter((e) => e.sessionId !== undefined) : list,
    );
  }

  dismiss(id: number): void {
    this.store.update((list) => list.filter((e) => e.id !== id));
  }

  dismissAll(): void {
    this.store.set([]);
  }
}

/** The user-facing text of anything thrown or rejected. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
