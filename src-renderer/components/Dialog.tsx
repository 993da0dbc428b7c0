import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A modal dialog over the app: focused when it opens, closed by its × button, a click outside
 * it and Esc.
 */
export function Dialog({
  title,
  className,
  testId,
  onClose,
  children,
}: {
  title: string;
  className: string;
  testId: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  return (
    <div className="overlay" onClick={onClose}>
      <div
        ref={box}
        className={`overlay-box ${className}`}
        role="dialog"
        aria-modal="true"
        aria-label={title}
        tabIndex={-1}
        data-testid={testId}
        onClick={(event) => event.stopPropagation()}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          event.stopPropagation();
          onClose();
        }}
      >
        <div className="overlay-header">
          <h2>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}
