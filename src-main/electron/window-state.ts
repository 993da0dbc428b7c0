import { screen, type BrowserWindow, type Rectangle } from 'electron';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Remembers the window's size, position and maximised state between runs, in a small JSON
 * file in the user-data folder. A saved position that is no longer on any display (a monitor
 * was unplugged) is dropped so the window never opens off screen.
 */
export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1400, height: 900 }, maximized: false };

function isRectangle(value: unknown): value is Rectangle {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  return ['x', 'y', 'width', 'height'].every((k) => typeof r[k] === 'number' && Number.isFinite(r[k]));
}

function visible(bounds: Rectangle): boolean {
  return screen
    .getAllDisplays()
    .some(
      ({ workArea: a }) =>
        bounds.x < a.x + a.width &&
        bounds.x + bounds.width > a.x &&
        bounds.y < a.y + a.height &&
        bounds.y + bounds.height > a.y,
    );
}

export function loadWindowState(path: string): WindowState & { positioned: boolean } {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<WindowState>;
    if (isRectangle(parsed.bounds) && parsed.bounds.width >= 400 && parsed.bounds.height >= 300) {
      const positioned = visible(parsed.bounds);
      return { bounds: parsed.bounds, maximized: parsed.maximized === true, positioned };
    }
  } catch {
    // No saved state yet, or a damaged file: use the defaults.
  }
  return { ...DEFAULT, positioned: false };
}

/** Saves the state (debounced) whenever the window moves, resizes or closes. */
export function trackWindowState(window: BrowserWindow, path: string): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = (): void => {
    if (window.isDestroyed()) return;
    const state: WindowState = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    void mkdir(dirname(path), { recursive: true }).then(() => writeFile(path, JSON.stringify(state)));
  };
  const later = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('maximize', later);
  window.on('unmaximize', later);
  window.on('close', () => {
    if (timer) clearTimeout(timer);
    save();
  });
}
