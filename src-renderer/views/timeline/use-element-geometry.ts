import { useLayoutEffect, useState, type RefObject } from 'react';

/** The scroller's offset and height, as state: the row window is computed from them. */
export function useScrollGeometry(ref: RefObject<HTMLElement | null>): { scrollTop: number; clientHeight: number } {
  const [geometry, setGeometry] = useState({ scrollTop: 0, clientHeight: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const read = (): void =>
      setGeometry((g) =>
        g.scrollTop === element.scrollTop && g.clientHeight === element.clientHeight
          ? g
          : { scrollTop: element.scrollTop, clientHeight: element.clientHeight },
      );
    read();
    const observer = new ResizeObserver(read);
    observer.observe(element);
    element.addEventListener('scroll', read, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', read);
    };
  }, [ref]);
  return geometry;
}

/** The element's width, followed as it changes (window resized, detail pane opened). */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
