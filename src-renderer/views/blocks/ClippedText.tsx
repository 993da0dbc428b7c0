import { useState } from 'react';

/** Long plain content is clipped to this many lines until expanded. */
const CLIP_LINES = 24;

export function lineCount(text: string, cap: number): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0 && lines <= cap; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

/** Plain text in a <pre>, clipped when long, with a toggle. */
export function ClippedText({ text, className, testId }: { text: string; className?: string; testId?: string }) {
  const [open, setOpen] = useState(false);
  const long = lineCount(text, CLIP_LINES) > CLIP_LINES || text.length > 6000;
  return (
    <div className={`clipped ${long && !open ? 'clipped-closed' : ''}`}>
      <pre className={`block-pre ${className ?? ''}`} data-testid={testId}>
        {text === '' ? <span className="muted">(empty)</span> : text}
      </pre>
      {long && (
        <button type="button" className="link-button clipped-toggle" onClick={() => setOpen((o) => !o)}>
          {open ? 'Show less' : `Show all (${text.length.toLocaleString('en')} chars)`}
        </button>
      )}
    </div>
  );
}
