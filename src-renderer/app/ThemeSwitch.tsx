import type { RendererApp } from '../model/types';
import { THEME_CHOICES, type ThemeChoice } from '../model/preferences';
import { TEST_IDS } from '../testids';
import { useStore } from './hooks';

const LABELS: Readonly<Record<ThemeChoice, string>> = { system: 'System theme', light: 'Light', dark: 'Dark' };

/** The theme the app shows: the system's (the default), or always light or dark; remembered in the preferences. */
export function ThemeSwitch({ app }: { app: RendererApp }) {
  const choice = useStore(app.prefs).theme;
  return (
    <select
      className="select theme-switch"
      aria-label="Theme"
      title="Theme"
      data-testid={TEST_IDS.themeSwitch}
      value={choice}
      onChange={(event) => {
        const next = THEME_CHOICES.find((c) => c === event.target.value) ?? 'system';
        app.prefs.update((p) => ({ ...p, theme: next }));
      }}
    >
      {THEME_CHOICES.map((c) => (
        <option key={c} value={c}>
          {LABELS[c]}
        </option>
      ))}
    </select>
  );
}
