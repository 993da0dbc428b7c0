import type { DownloadFile } from '../../src-shared/contract';
import { decodeBase64 } from '../model/bytes';
import type { FrameScheduler } from '../model/scheduler';
import { createStore } from '../model/store';
import { persist, type KeyValueStorage } from '../model/preferences';
import type { ReadableStore, ThemeName } from '../model/types';

/** While the window is hidden there are no animation frames: queued work runs this often instead. */
const HIDDEN_FRAME_MS = 250;

/** Animation frames and timers of the window. */
export function browserScheduler(): FrameScheduler {
  return {
    requestFrame(callback) {
      if (document.visibilityState === 'hidden') {
        // A hidden window gets no frames; batches must not pile up until it is shown again.
        const timer = window.setTimeout(callback, HIDDEN_FRAME_MS);
        return () => window.clearTimeout(timer);
      }
      const id = requestAnimationFrame(() => callback());
      return () => cancelAnimationFrame(id);
    },
    after(ms, callback) {
      const id = window.setTimeout(callback, ms);
      return () => window.clearTimeout(id);
    },
    now: () => Date.now(),
  };
}

/** The system's colour scheme, following changes while the app runs. */
export function systemTheme(): ReadableStore<ThemeName> {
  const query = window.matchMedia('(prefers-color-scheme: dark)');
  const store = createStore<ThemeName>(query.matches ? 'dark' : 'light');
  query.addEventListener('change', (event) => store.set(event.matches ? 'dark' : 'light'));
  return store;
}

/** localStorage, or an in-memory stand-in where it is unavailable. */
export function browserStorage(): { getItem(key: string): string | null; setItem(key: string, value: string): void } {
  try {
    const probe = '__asi_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    const memory = new Map<string, string>();
    return { getItem: (key) => memory.get(key) ?? null, setItem: (key, value) => void memory.set(key, value) };
  }
}

/**
 * Whether to start the demo tour when main has no session: on the app's first start only (a
 * newcomer sees a live stream at once; everyone after that starts where they like), never
 * with `?autoconnect=0` (test runs that want an empty app). Remembered in `storage`.
 */
export function shouldAutoConnect(storage: KeyValueStorage): boolean {
  const param = new URLSearchParams(window.location.search).get('autoconnect');
  if (param === '0' || param === 'false') return false;
  if (storage.getItem(TOUR_SHOWN_KEY)) return false;
  persist(storage, TOUR_SHOWN_KEY, '1');
  return true;
}

const TOUR_SHOWN_KEY = 'asi.tourShown';

/** How long a download's object URL stays valid: the browser has started reading it by then. */
const DOWNLOAD_URL_MS = 60_000;

/** Hands a file main built to the browser as a download (the browser host has no save dialog). */
export function browserDownload(file: DownloadFile): void {
  downloadBlob(
    file.fileName,
    new Blob([decodeBase64(file.base64) as Uint8Array<ArrayBuffer>], { type: file.mimeType }),
  );
}

/** Starts the browser's download of `blob` under `name`. */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_MS);
}
