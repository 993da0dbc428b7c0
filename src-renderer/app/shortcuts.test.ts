import { describe, expect, it } from 'vitest';
import { matchShortcut, SHORTCUTS } from './shortcuts';

const key = (
  k: string,
  mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {},
) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });

describe('shortcuts', () => {
  it.each([
    ['?', 'help'],
    ['1', 'view-connect'],
    ['5', 'view-diff'],
    ['/', 'focus-filter'],
    ['L', 'toggle-lanes'],
    ['s', 'stop'],
    [']', 'next-session'],
  ] as const)('maps %s to %s outside text fields', (k, id) => {
    expect(matchShortcut(key(k), false)).toBe(id);
  });

  it('never takes single keys from text fields and editors', () => {
    expect(matchShortcut(key('s'), true)).toBeNull();
    expect(matchShortcut(key('/'), true)).toBeNull();
    expect(matchShortcut(key('?'), true)).toBeNull();
  });

  it('takes Ctrl/Cmd combinations and Escape everywhere', () => {
    expect(matchShortcut(key('o', { ctrlKey: true }), true)).toBe('open-file');
    expect(matchShortcut(key('O', { metaKey: true }), false)).toBe('open-file');
    expect(matchShortcut(key('Enter', { ctrlKey: true }), true)).toBe('connect');
    expect(matchShortcut(key('Escape'), true)).toBe('escape');
    expect(matchShortcut(key('c', { ctrlKey: true }), false)).toBeNull();
    expect(matchShortcut(key('s', { altKey: true }), false)).toBeNull();
  });

  it('lists every shortcut it handles in the help overlay', () => {
    const listed = new Set(SHORTCUTS.map((s) => s.id));
    for (const k of ['?', '1', '2', '3', '4', '5', 's', '/', 'l', 'd', 'f', '[', ']']) {
      const id = matchShortcut(key(k), false);
      expect(id && listed.has(id)).toBe(true);
    }
  });
});
