import { DEFAULT_COLUMN_PREFS, readColumnPrefs, type ColumnPrefs } from './columns';
import { createStore, type Store } from './store';
import type { ReadableStore, ThemeName } from './types';

/** Key/value persistence (localStorage in the browser, a Map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export type TimelineMode = 'table' | 'lanes';
export type DetailTab = 'envelope' | 'bytes' | 'frame' | 'block';

/** The theme the user chose: the system's (followed as it changes), or always light or dark. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** UI preferences remembered between runs. */
export interface Prefs {
  readonly timelineMode: TimelineMode;
  readonly detailTab: DetailTab;
  readonly detailOpen: boolean;
  /** Width of the detail pane in pixels. */
  readonly detailWidth: number;
  /** The timeline table's chosen columns and their widths. */
  readonly columns: ColumnPrefs;
  /** The one-line introduction above a demo run was dismissed. */
  readonly introDismissed: boolean;
  readonly theme: ThemeChoice;
}

const DEFAULT_PREFS: Prefs = {
  timelineMode: 'table',
  detailTab: 'envelope',
  detailOpen: true,
  detailWidth: 440,
  columns: DEFAULT_COLUMN_PREFS,
  introDismissed: false,
  theme: 'system',
};
const PREFS_KEY = 'asi.prefs';

/** The detail pane opens when the user selects a row (it stays closed while the arrow keys move). */
export function withDetailOpen(prefs: Prefs): Prefs {
  return prefs.detailOpen ? prefs : { ...prefs, detailOpen: true };
}

/**
 * The theme the app shows: the user's choice, or the system's while the choice is 'system'
 * (following its changes). Recomputed on a change of either; unchanged values notify no one.
 */
export function chosenTheme(prefs: ReadableStore<Prefs>, system: ReadableStore<ThemeName>): ReadableStore<ThemeName> {
  const resolve = (): ThemeName => {
    const choice = prefs.getSnapshot().theme;
    return choice === 'system' ? system.getSnapshot() : choice;
  };
  const theme = createStore<ThemeName>(resolve());
  const refresh = (): void => theme.set(resolve());
  prefs.subscribe(refresh);
  system.subscribe(refresh);
  return { getSnapshot: theme.getSnapshot, subscribe: theme.subscribe };
}

/** The preferences as stored (defaults for anything missing or unreadable), saved on every change. */
export function createPrefsStore(storage: KeyValueStorage): Store<Prefs> {
  const stored = readJson<Partial<Prefs>>(storage.getItem(PREFS_KEY));
  const prefs = createStore<Prefs>({
    ...DEFAULT_PREFS,
    ...stored,
    columns: readColumnPrefs(stored?.columns),
    theme: THEME_CHOICES.find((choice) => choice === stored?.theme) ?? DEFAULT_PREFS.theme,
  });
  prefs.subscribe(() => persist(storage, PREFS_KEY, JSON.stringify(prefs.getSnapshot())));
  return prefs;
}

/** Writes one value; storage full or disabled means it simply is not remembered. */
export function persist(storage: KeyValueStorage, key: string, value: string): void {
  try {
    storage.setItem(key, value);
  } catch {
    // Not remembered: nothing else depends on it.
  }
}

function readJson<T>(text: string | null): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
