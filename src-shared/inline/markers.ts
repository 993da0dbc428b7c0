/**
 * Finding fixed markers (`</thinking>`, `[[SEG_END]]`, `]]>`, …) in text that arrives in
 * pieces, with the holdback rule of docs/protocols/segments.md ("Safe Streaming"): characters
 * that may be the start of a marker are held until the next character decides, so a partial
 * marker is never released as content. Holding is bounded by the longest marker.
 */
export interface MarkerScanner {
  /**
   * Scan `text` from `from`: releases content through `onContent` and stops just after the
   * first complete marker, returning its index in `markers` and the position after it; or
   * returns -1 and `text.length` when the text ran out (a partial marker may be held).
   */
  scan(text: string, from: number, onContent: (content: string) => void): { hit: number; next: number };
  /** The characters held back (a prefix of some marker), for the end of the block. */
  readonly held: string;
  /** Forget what is held (it was taken as content elsewhere). */
  reset(): void;
}

/**
 * Finds the next occurrence of any of a few characters. A text is scanned from increasing
 * offsets, so each character's last hit is kept: a rare character is searched for once per
 * text, not once per call (which would be quadratic in a long delta full of the other one).
 */
export function createCharFinder(chars: string): (text: string, from: number) => number {
  if (chars.length === 1) return (text, from) => text.indexOf(chars, from);
  let cachedText: string | undefined;
  const hits = new Array<number>(chars.length).fill(-1);
  return (text, from) => {
    if (text !== cachedText) {
      cachedText = text;
      hits.fill(-2);
    }
    let best = -1;
    for (let c = 0; c < chars.length; c++) {
      let at = hits[c] as number;
      // -2: not searched in this text yet; a hit behind `from` is stale.
      if (at === -2 || (at !== -1 && at < from)) {
        at = text.indexOf(chars.charAt(c), from);
        hits[c] = at;
      }
      if (at !== -1 && (best === -1 || at < best)) best = at;
    }
    return best;
  };
}

export function createMarkerScanner(markers: readonly string[]): MarkerScanner {
  const nextCandidate = createCharFinder([...new Set(markers.map((m) => m.charAt(0)))].join(''));
  let held = '';

  const isPrefix = (s: string): boolean => markers.some((m) => m.startsWith(s));

  return {
    get held() {
      return held;
    },
    reset() {
      held = '';
    },
    scan(text, from, onContent) {
      let i = from;
      while (i < text.length) {
        if (held === '') {
          // Fast path: copy the run up to the next character that can start a marker.
          const at = nextCandidate(text, i);
          if (at === -1) {
            onContent(text.slice(i));
            return { hit: -1, next: text.length };
          }
          if (at > i) onContent(text.slice(i, at));
          held = text.charAt(at);
          i = at + 1;
        } else {
          const candidate = held + text.charAt(i);
          i++;
          if (isPrefix(candidate)) {
            held = candidate;
          } else {
            // Release the shortest head after which the rest may still start a marker (markers
            // are short, so this costs a bounded amount per released character).
            let cut = 1;
            while (cut < candidate.length && !isPrefix(candidate.slice(cut))) cut++;
            onContent(candidate.slice(0, cut));
            held = candidate.slice(cut);
          }
        }
        const hit = markers.indexOf(held);
        if (hit !== -1) {
          held = '';
          return { hit, next: i };
        }
      }
      return { hit: -1, next: i };
    },
  };
}

/**
 * A scanner per marker set, made once and reset on each request: a block may hold thousands
 * of segments with the same markers, and one parser reads one marker set at a time.
 */
export function createScannerPool(): (markers: readonly string[]) => MarkerScanner {
  const scanners = new Map<string, MarkerScanner>();
  return (markers) => {
    const key = markers.join('\u0000');
    let found = scanners.get(key);
    if (!found) {
      found = createMarkerScanner(markers);
      scanners.set(key, found);
    }
    found.reset();
    return found;
  };
}
