/**
 * The keyboard shortcuts, as data: the help overlay lists them and `matchShortcut` maps a key
 * event to one. Single keys only act outside text fields and editors, so typing is never hijacked.
 */

export type ShortcutId =
  | 'help'
  | 'view-connect'
  | 'view-timeline'
  | 'view-blocks'
  | 'view-diagnostics'
  | 'view-diff'
  | 'open-file'
  | 'connect'
  | 'stop'
  | 'focus-filter'
  | 'toggle-lanes'
  | 'toggle-detail'
  | 'follow'
  | 'previous-session'
  | 'next-session'
  | 'escape';

export interface Shortcut {
  readonly id: ShortcutId;
  /** As shown in the help overlay. */
  readonly keys: string;
  readonly description: string;
  readonly group: 'General' | 'Views' | 'Timeline';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { id: 'help', keys: '?', description: 'Show or hide this list', group: 'General' },
  { id: 'connect', keys: 'Ctrl+Enter', description: 'Connect with the form (from anywhere)', group: 'General' },
  { id: 'open-file', keys: 'Ctrl+O', description: 'Open a recording or capture', group: 'General' },
  { id: 'stop', keys: 'S', description: 'Stop the live session', group: 'General' },
  { id: 'previous-session', keys: '[', description: 'Previous session', group: 'General' },
  { id: 'next-session', keys: ']', description: 'Next session', group: 'General' },
  { id: 'escape', keys: 'Esc', description: 'Close the overlay or detail pane, clear the selection', group: 'General' },
  { id: 'view-connect', keys: '1', description: 'Connect', group: 'Views' },
  { id: 'view-timeline', keys: '2', description: 'Timeline', group: 'Views' },
  { id: 'view-blocks', keys: '3', description: 'Blocks', group: 'Views' },
  { id: 'view-diagnostics', keys: '4', description: 'Diagnostics', group: 'Views' },
  { id: 'view-diff', keys: '5', description: 'Diff', group: 'Views' },
  {
    id: 'focus-filter',
    keys: '/',
    description: 'Filter the rows with an expression (Tab completes, Enter applies)',
    group: 'Timeline',
  },
  { id: 'toggle-lanes', keys: 'L', description: 'Switch between table and lanes', group: 'Timeline' },
  { id: 'toggle-detail', keys: 'D', description: 'Show or hide the detail pane', group: 'Timeline' },
  { id: 'follow', keys: 'F', description: 'Jump to the newest row and follow it', group: 'Timeline' },
];

/** Rows of the timeline also move with ↑ ↓ PgUp PgDn Home End; Enter opens the detail pane. */
export const TABLE_KEYS: readonly { keys: string; description: string }[] = [
  { keys: '↑ ↓', description: 'Previous / next row' },
  { keys: 'PgUp PgDn', description: 'One page up / down' },
  { keys: 'Home End', description: 'First / last row' },
  { keys: 'Enter', description: 'Open the row in the detail pane' },
];

export interface KeyLike {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly altKey: boolean;
  readonly shiftKey?: boolean;
}

const SINGLE_KEYS: Readonly<Record<string, ShortcutId>> = {
  '?': 'help',
  '1': 'view-connect',
  '2': 'view-timeline',
  '3': 'view-blocks',
  '4': 'view-diagnostics',
  '5': 'view-diff',
  s: 'stop',
  '/': 'focus-filter',
  l: 'toggle-lanes',
  d: 'toggle-detail',
  f: 'follow',
  '[': 'previous-session',
  ']': 'next-session',
};

/** The shortcut a key press means, or null. `inEditable`: the focus is in a text field or editor. */
export function matchShortcut(event: KeyLike, inEditable: boolean): ShortcutId | null {
  const command = event.ctrlKey || event.metaKey;
  if (command && !event.altKey) {
    const key = event.key.toLowerCase();
    if (key === 'o') return 'open-file';
    if (key === 'enter') return 'connect';
    return null;
  }
  if (event.key === 'Escape') return 'escape';
  if (inEditable || event.altKey || command) return null;
  return (
    SINGLE_KEYS[event.key.length === 1 ? event.key.toLowerCase() : event.key] ?? (event.key === '?' ? 'help' : null)
  );
}
