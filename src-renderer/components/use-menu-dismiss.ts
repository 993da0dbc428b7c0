import { useEffect, type RefObject } from 'react';

/**
 * A `<details>` used as a drop-down menu closes the way menus do: on a click outside it and
 * on Esc (focus returns to its summary, so the keyboard user is where they were).
 */
export function useMenuDismiss(details: RefObject<HTMLDetailsElement | null>): void {
  useEffect(() => {
    const onMouseDown = (event: MouseEvent): void => {
      if (details.current?.open && !details.current.contains(event.target as Node)) details.current.open = false;
    };
    const onKeyDown = (event: KeyboardEvent): void => {
      const element = details.current;
      if (event.key !== 'Escape' || !element?.open) return;
      element.open = false;
      element.querySelector('summary')?.focus();
      event.stopPropagation();
    };
    document.addEventListener('mousedown', onMouseDown);
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      document.removeEventListener('mousedown', onMouseDown);
      document.removeEventListener('keydown', onKeyDown, true);
    };
  }, [details]);
}
