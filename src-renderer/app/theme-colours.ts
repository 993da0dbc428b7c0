import { useMemo } from 'react';
import type { ThemeName } from '../model/types';

/**
 * Colours a canvas or a chart library needs as values, read from the theme's CSS variables:
 * the stylesheet is the one place a colour is written (styles/theme.css, both themes).
 * `names` maps each key to its variable (`--t-text`); a variable the page lacks reads as
 * `currentColor`.
 */
export function themeColours<K extends string>(names: Readonly<Record<K, string>>): Record<K, string> {
  const styles = getComputedStyle(document.documentElement);
  const out = {} as Record<K, string>;
  for (const key of Object.keys(names) as K[]) out[key] = styles.getPropertyValue(names[key]).trim() || 'currentColor';
  return out;
}

/** `themeColours`, read again when the theme changes (the stylesheet's variables change with it). */
export function useThemeColours<K extends string>(
  theme: ThemeName,
  names: Readonly<Record<K, string>>,
): Record<K, string> {
  // `theme` is not read here: it is what makes the variables' values change.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => themeColours(names), [theme, names]);
}
