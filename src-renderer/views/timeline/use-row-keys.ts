import { useCallback, useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { isEditableTarget } from '../../app/files';
import { uiCommands } from '../../app/ui-commands';
import { withDetailOpen } from '../../model/preferences';
import type { TimelineModel } from '../../model/timeline';
import type { RendererApp } from '../../model/types';
import { ROW_HEIGHT } from './TimelineRow';

export interface RowKeysOptions {
  readonly app: RendererApp;
  readonly timeline: TimelineModel;
  /** The table's scrolling element, which takes the focus. */
  readonly scroller: RefObject<HTMLDivElement | null>;
  readonly count: number;
  /** The selected row's position in the table, -1 when none is shown. */
  readonly selectedPosition: number;
  readonly selectedRow: number | null;
  readonly live: boolean;
  readonly setFollowing: (on: boolean) => void;
  readonly scrollToPosition: (position: number, align: 'center' | 'nearest') => void;
}

/**
 * The timeline's keys: ↑ ↓ PageUp PageDown Home End move the selection through the rows
 * (following again at the newest of a live session), Enter opens the detail. The rows take
 * the focus when they appear and when asked, and the keys work with nothing focused too.
 * Returns the rows' keydown handler.
 */
export function useRowKeys({
  app,
  timeline,
  scroller,
  count,
  selectedPosition,
  selectedRow,
  live,
  setFollowing,
  scrollToPosition,
}: RowKeysOptions): (event: KeyboardEvent<HTMLDivElement>) => void {
  const moveTo = (position: number): void => {
    if (count === 0) return;
    const clamped = Math.max(0, Math.min(count - 1, position));
    const seq = timeline.seqAt(clamped);
    if (seq === undefined) return;
    app.selectRow(seq, { reveal: false });
    setFollowing(clamped === count - 1 && live);
    scrollToPosition(clamped, 'nearest');
  };

  /** Carries out a navigation key (↑ ↓ PageUp PageDown Home End, Enter opens the detail); false for any other key. */
  const navigate = (key: string): boolean => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const from = selectedPosition >= 0 ? selectedPosition : -1;
    switch (key) {
      case 'ArrowDown':
        moveTo(from + 1);
        return true;
      case 'ArrowUp':
        moveTo(from < 0 ? 0 : from - 1);
        return true;
      case 'PageDown':
        moveTo(from + page);
        return true;
      case 'PageUp':
        moveTo(from - page);
        return true;
      case 'Home':
        moveTo(0);
        return true;
      case 'End':
        moveTo(count - 1);
        return true;
      case 'Enter':
        if (selectedRow !== null) app.prefs.update(withDetailOpen);
        return true;
      default:
        return false;
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (navigate(event.key)) event.preventDefault();
  };

  // The rows take the focus when they appear (a session opened, a filter that hid every row
  // undone) and when asked (a filter applied with Enter), so the keys work without a click;
  // never from a field the user is typing in.
  const focusRows = useCallback(() => {
    if (!isEditableTarget(document.activeElement)) scroller.current?.focus({ preventScroll: true });
  }, [scroller]);
  useEffect(() => focusRows(), [focusRows]);
  useEffect(
    () =>
      uiCommands.event((command) => {
        if (command === 'focus-table') scroller.current?.focus({ preventScroll: true });
      }),
    [scroller],
  );
  // With nothing focused (a click on empty space, a closed dialog), the navigation keys still
  // move in the rows, which take the focus.
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  useEffect(() => {
    const onWindowKey = (event: globalThis.KeyboardEvent): void => {
      const target = document.activeElement;
      if (event.defaultPrevented || (target !== null && target !== document.body)) return;
      if (event.ctrlKey || event.metaKey || event.altKey || event.key === 'Enter') return;
      if (!navigateRef.current(event.key)) return;
      event.preventDefault();
      scroller.current?.focus({ preventScroll: true });
    };
    window.addEventListener('keydown', onWindowKey);
    return () => window.removeEventListener('keydown', onWindowKey);
  }, [scroller]);

  return onKeyDown;
}
