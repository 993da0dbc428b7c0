import type { KeyboardEvent } from 'react';

/** The keys that move a closed select's choice without opening it (Chromium on Linux and Windows). */
const MOVING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * For a select that acts as soon as a choice is made ("Export…", "Decode as…"): an arrow key
 * on it while closed would choose, and act, without the user seeing the list. Those keys are
 * held back; Space, Enter and Alt+Down still open the list, where the arrows move as usual.
 */
export function holdMovingKeys(event: KeyboardEvent<HTMLSelectElement>): void {
  if (MOVING_KEYS.has(event.key) && !event.altKey) event.preventDefault();
}
