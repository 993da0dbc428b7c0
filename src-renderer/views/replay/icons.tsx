/**
 * Transport icons as inline SVG: the media-control code points (⏸ ⏭) are missing from many
 * system fonts, and an icon that renders as a box is worse than none.
 */
const common = { width: 12, height: 12, viewBox: '0 0 12 12', 'aria-hidden': true, focusable: false } as const;

export function PlayIcon() {
  return (
    <svg {...common}>
      <path d="M3 1.5v9l7.5-4.5z" fill="currentColor" />
    </svg>
  );
}

export function PauseIcon() {
  return (
    <svg {...common}>
      <rect x="2.5" y="1.5" width="2.5" height="9" fill="currentColor" />
      <rect x="7" y="1.5" width="2.5" height="9" fill="currentColor" />
    </svg>
  );
}

export function StepIcon() {
  return (
    <svg {...common}>
      <path d="M2 1.5v9l6-4.5z" fill="currentColor" />
      <rect x="8.5" y="1.5" width="2" height="9" fill="currentColor" />
    </svg>
  );
}

export function RestartIcon() {
  return (
    <svg {...common}>
      <path d="M6 2a4 4 0 1 1-3.9 4.9" stroke="currentColor" strokeWidth="1.5" fill="none" />
      <path d="M6 0v4L3.5 2z" fill="currentColor" />
    </svg>
  );
}

export function LoopIcon() {
  return (
    <svg {...common}>
      <path
        d="M2 5.5V5a2.5 2.5 0 0 1 2.5-2.5H9M10 6.5V7a2.5 2.5 0 0 1-2.5 2.5H3"
        stroke="currentColor"
        strokeWidth="1.4"
        fill="none"
      />
      <path d="M8.5 0.8 11 2.5 8.5 4.2zM3.5 7.8 1 9.5l2.5 1.7z" fill="currentColor" />
    </svg>
  );
}
