import type { Listener, Unsubscribe } from './define';

/** A typed event source: services expose `emitter.event` as their `onXxx` member. */
export interface Emitter<T> {
  readonly event: (listener: Listener<T>) => Unsubscribe;
  fire(payload: T): void;
  readonly listenerCount: number;
}

export function createEmitter<T>(onListenerError: (error: unknown) => void = () => {}): Emitter<T> {
  const listeners = new Set<Listener<T>>();
  return {
    event(listener) {
      // Wrapped so the same function may subscribe twice and unsubscribe each separately.
      const entry: Listener<T> = (payload) => listener(payload);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    fire(payload) {
      for (const listener of [...listeners]) {
        try {
          listener(payload);
        } catch (error) {
          onListenerError(error);
        }
      }
    },
    get listenerCount() {
      return listeners.size;
    },
  };
}
