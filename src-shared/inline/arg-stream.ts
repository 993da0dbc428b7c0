import { createMarkerScanner, type MarkerScanner } from './markers';
import { isSpace } from './text-runs';

/**
 * The content argument of a `<tool name="write_file">` (`patch_file`, `run_bash`), streamed as
 * the segment's content (docs/inline.md, docs/protocols/segments.md "raw markers"). When the
 * argument starts with a start marker (`__START_CONTENT__`, or `__START_PATCH__` for a patch),
 * only what lies between it and its end marker is content, markers stripped.
 *
 * An end marker ends the content only when the argument's closing tag follows it (white space
 * allowed): a file that mentions `__END_CONTENT__` (a comment, a doc about the protocol) keeps
 * it as content. So between the markers the end marker, the white space after it and the start
 * of the closing tag are held until the next character decides. The line break after the start
 * marker belongs to the marker; the one before a real end marker belongs to the content.
 */
export interface RawMarkers {
  start: string;
  end: string;
}

export const CONTENT_MARKERS: RawMarkers = { start: '__START_CONTENT__', end: '__END_CONTENT__' };
export const PATCH_MARKERS: RawMarkers = { start: '__START_PATCH__', end: '__END_PATCH__' };

/** Longest white space held between an end marker and the closing tag before the marker is taken as content. */
const MAX_GAP = 1024;

type Phase = 'lead' | 'raw' | 'inside' | 'ending';

export interface ArgStream {
  /** Read `s` from `i`, releasing content; `closed` once the argument's closing tag was read (`next` is past it). */
  read(s: string, i: number, emit: (content: string) => void): { next: number; closed: boolean };
  /** Characters read but not released (a marker being decided). */
  held(): string;
}

/** `close`: the argument's closing tag (`</arg>`); `pairs`: the raw markers this tool accepts. */
export function createArgStream(
  close: string,
  pairs: readonly RawMarkers[],
  scannerFor: (markers: readonly string[]) => MarkerScanner = createMarkerScanner,
): ArgStream {
  let phase: Phase = 'lead';
  let lead = '';
  let pair: RawMarkers | undefined;
  let scanner = scannerFor([close]);
  /** In 'ending': the end marker and what followed it, not yet decided. */
  let ending = '';
  /** How much of the closing tag `ending` ends with. */
  let closeRead = 0;
  let skipLineBreak = false;

  function readLead(s: string, i: number, emit: (content: string) => void): number {
    const next = lead + s.charAt(i);
    const marker = next.trimStart();
    const matching = pairs.filter((p) => p.start.startsWith(marker));
    if (marker === '' || matching.length > 0) {
      lead = next;
      const found = matching.find((p) => p.start === marker);
      if (found) {
        pair = found;
        phase = 'inside';
        scanner = scannerFor([found.end]);
        lead = '';
        skipLineBreak = true;
      }
      return i + 1;
    }
    phase = 'raw';
    emit(lead);
    lead = '';
    return i;
  }

  /** One character after an end marker: white space, the closing tag, or proof that the marker was content. */
  function readEnding(s: string, i: number, emit: (content: string) => void): { next: number; closed: boolean } {
    const c = s.charAt(i);
    if (c === close.charAt(closeRead)) {
      ending += c;
      closeRead++;
      if (closeRead === close.length) return { next: i + 1, closed: true };
      return { next: i + 1, closed: false };
    }
    if (closeRead === 0 && isSpace(c) && ending.length - (pair as RawMarkers).end.length < MAX_GAP) {
      ending += c;
      return { next: i + 1, closed: false };
    }
    // Not followed by the closing tag: the marker and what came after it are file content, and
    // the character is read again (it may start another end marker).
    emit(ending);
    ending = '';
    closeRead = 0;
    phase = 'inside';
    scanner.reset();
    return { next: i, closed: false };
  }

  return {
    read(s, i, emit) {
      while (i < s.length) {
        if (phase === 'lead') {
          i = readLead(s, i, emit);
          continue;
        }
        if (phase === 'ending') {
          const step = readEnding(s, i, emit);
          if (step.closed) return step;
          i = step.next;
          continue;
        }
        if (skipLineBreak) {
          // The line break right after the start marker belongs to the marker (once).
          skipLineBreak = false;
          if (s.charAt(i) === '\n') {
            i++;
            continue;
          }
        }
        const { hit, next } = scanner.scan(s, i, emit);
        if (hit === -1) return { next, closed: false };
        if (phase === 'raw') return { next, closed: true };
        phase = 'ending';
        ending = (pair as RawMarkers).end;
        closeRead = 0;
        i = next;
      }
      return { next: i, closed: false };
    },
    held() {
      return phase === 'lead' ? lead : phase === 'ending' ? ending : scanner.held;
    },
  };
}
