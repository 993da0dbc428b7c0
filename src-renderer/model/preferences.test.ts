import { describe, expect, it } from 'vitest';
import { createPrefsStore, withDetailOpen, type KeyValueStorage } from './preferences';

function memory(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('preferences', () => {
  it('start from the defaults, keep what was stored, and are saved on every change', () => {
    const storage = memory({ 'asi.prefs': JSON.stringify({ timelineMode: 'lanes', detailWidth: 600 }) });
    const prefs = createPrefsStore(storage);
    expect(prefs.getSnapshot()).toMatchObject({
      timelineMode: 'lanes',
      detailWidth: 600,
      detailTab: 'envelope',
      detailOpen: true,
    });
    prefs.update((p) => ({ ...p, detailTab: 'bytes' }));
    expect(JSON.parse(storage.data.get('asi.prefs') ?? '{}')).toMatchObject({
      timelineMode: 'lanes',
      detailTab: 'bytes',
    });
  });

  it('read unreadable storage as the defaults, and a storage that refuses writes loses nothing but the memory', () => {
    const prefs = createPrefsStore({
      getItem: () => '{not json',
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    });
    expect(prefs.getSnapshot().timelineMode).toBe('table');
    prefs.update((p) => ({ ...p, timelineMode: 'lanes' }));
    expect(prefs.getSnapshot().timelineMode).toBe('lanes');
  });

  it('open the detail pane without a new object when it is open already', () => {
    const prefs = createPrefsStore(memory()).getSnapshot();
    expect(withDetailOpen(prefs)).toBe(prefs);
    expect(withDetailOpen({ ...prefs, detailOpen: false }).detailOpen).toBe(true);
  });
});
