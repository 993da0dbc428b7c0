import { useLayoutEffect, useRef, useState } from 'react';
import { asciiCell, hexByte, hexLines, hexOffset, markRuns } from '../../model/bytes';
import { formatBytes } from '../../model/format';
import { TEST_IDS } from '../../testids';

/** What a line of each width needs, in characters of the monospace font: offset, bytes ("xx "), text, and the gaps and padding (about 7). */
const LINE_CHARS = (width: number): number => 8 + 3 * width + (width + 1) + 7;

/** The widths a line may have, widest first: a hexdump's 16, else 8 so the text column always shows whole. */
const WIDTHS = [16, 8] as const;

/**
 * A hexdump of `bytes` (which start at stream offset `base`), each byte coloured by `mark`. A
 * line holds 16 bytes when the pane is wide enough for them and their text column, 8 when it
 * is not: the text column is never cut off.
 */
export function HexView({
  bytes,
  base,
  shownOf,
  mark,
}: {
  bytes: Uint8Array;
  base: number;
  /** How many bytes the caller had: more than `bytes` holds says the dump is cut. */
  shownOf: number;
  mark: (offset: number) => string;
}) {
  const view = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState<number>(WIDTHS[0]);
  useLayoutEffect(() => {
    const element = view.current;
    if (!element) return undefined;
    const fit = (): void => {
      const probe = element.querySelector('.hex-char-probe');
      const ch = probe instanceof HTMLElement ? probe.getBoundingClientRect().width : 7;
      const room = element.clientWidth / Math.max(1, ch);
      setWidth(WIDTHS.find((w) => LINE_CHARS(w) <= room) ?? WIDTHS[WIDTHS.length - 1]!);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="hex-view" ref={view} data-testid={TEST_IDS.rawHex} data-width={width}>
      <span className="hex-char-probe" aria-hidden>
        0
      </span>
      {hexLines(bytes, base, width).map((line) => (
        <div key={line.offset} className="hex-line">
          <span className="hex-offset">{hexOffset(line.offset)}</span>
          <span
            className="hex-bytes"
            style={{ width: `${3 * width}ch`, paddingLeft: `${(line.offset % width) * 3}ch` }}
          >
            {markRuns(line, mark).map((run) => (
              <span key={run.from} className={run.mark || undefined}>
                {Array.from(line.bytes.subarray(run.from, run.to), hexByte).join(' ')}
                {run.to < line.bytes.length ? ' ' : ''}
              </span>
            ))}
          </span>
          <span className="hex-ascii" style={{ width: `${width + 1}ch`, paddingLeft: `${line.offset % width}ch` }}>
            {markRuns(line, mark).map((run) => (
              <span key={run.from} className={run.mark || undefined}>
                {Array.from(line.bytes.subarray(run.from, run.to), asciiCell).join('')}
              </span>
            ))}
          </span>
        </div>
      ))}
      {shownOf > bytes.length && (
        <div className="hint">Hex shows the first {formatBytes(bytes.length)}; the text view above shows all.</div>
      )}
    </div>
  );
}
