/**
 * Sequence alignment: which items of two lists correspond, in order. Items are compared by
 * key (a string signature), so the alignment is the longest common subsequence of the keys.
 */

export interface Aligned {
  left?: number;
  right?: number;
}

/**
 * Above this many edits the exact diff would keep O(D²) trace memory; the alignment then falls
 * back to pairing the n-th occurrence of each key and keeping the longest increasing run.
 */
const MAX_EXACT_EDITS = 2000;

/**
 * The aligned rows of two key lists, in order: pairs where keys match, and unmatched items
 * between them (left ones before right ones inside each gap).
 */
export function alignKeys(left: readonly string[], right: readonly string[]): Aligned[] {
  return mergePairs(left.length, right.length, commonPairs(left, right));
}

/** Index pairs [i, j] with left[i] === right[j], strictly increasing in both. */
export function commonPairs(left: readonly string[], right: readonly string[]): [number, number][] {
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  let endLeft = left.length;
  let endRight = right.length;
  while (endLeft > start && endRight > start && left[endLeft - 1] === right[endRight - 1]) {
    endLeft--;
    endRight--;
  }
  const pairs: [number, number][] = [];
  for (let i = 0; i < start; i++) pairs.push([i, i]);
  const middleLeft = left.slice(start, endLeft);
  const middleRight = right.slice(start, endRight);
  const middle = myers(middleLeft, middleRight) ?? occurrencePairs(middleLeft, middleRight);
  for (const [i, j] of middle) pairs.push([i + start, j + start]);
  for (let k = 0; k < left.length - endLeft; k++) pairs.push([endLeft + k, endRight + k]);
  return pairs;
}

/** Rows from matched pairs: unmatched items of each gap come before the next pair. */
export function mergePairs(
  leftLength: number,
  rightLength: number,
  pairs: readonly (readonly [number, number])[],
): Aligned[] {
  const rows: Aligned[] = [];
  let i = 0;
  let j = 0;
  const gap = (untilLeft: number, untilRight: number): void => {
    for (; i < untilLeft; i++) rows.push({ left: i });
    for (; j < untilRight; j++) rows.push({ right: j });
  };
  for (const [pi, pj] of pairs) {
    gap(pi, pj);
    rows.push({ left: pi, right: pj });
    i = pi + 1;
    j = pj + 1;
  }
  gap(leftLength, rightLength);
  return rows;
}

/**
 * Myers' O(ND) shortest edit script, returning the matched pairs; null when the lists differ
 * by more than MAX_EXACT_EDITS. `trace[d]` keeps the furthest-reaching x per diagonal before
 * step d, over diagonals -d-1..d+1 only.
 */
function myers(a: readonly string[], b: readonly string[]): [number, number][] | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return [];
  const max = Math.min(n + m, MAX_EXACT_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0));
      let x = down ? (v[offset + k + 1] ?? 0) : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return null;

  const pairs: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = found; d >= 0; d--) {
    const snapshot = trace[d] ?? new Int32Array(0);
    const at = (k: number): number => snapshot[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      pairs.push([x, y]);
    }
    x = prevX;
    y = prevY;
  }
  return pairs.reverse();
}

/**
 * Fallback for very different lists: pair the n-th occurrence of a key on the left with its
 * n-th occurrence on the right, then keep the longest run increasing on both sides
 * (patience-style, O(n log n)). Not always the longest common subsequence, always a valid one.
 */
function occurrencePairs(a: readonly string[], b: readonly string[]): [number, number][] {
  const positions = new Map<string, number[]>();
  b.forEach((key, j) => {
    const list = positions.get(key);
    if (list) list.push(j);
    else positions.set(key, [j]);
  });
  const seen = new Map<string, number>();
  const candidates: [number, number][] = [];
  a.forEach((key, i) => {
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    const j = positions.get(key)?.[count];
    if (j !== undefined) candidates.push([i, j]);
  });
  return longestIncreasing(candidates);
}

/** Longest subsequence of pairs (already increasing in i) that is increasing in j. */
function longestIncreasing(pairs: readonly [number, number][]): [number, number][] {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p++) {
    const j = pairs[p]?.[1] ?? 0;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] ?? 0]?.[1] ?? 0) < j) lo = mid + 1;
      else hi = mid;
    }
    previous[p] = lo > 0 ? (tails[lo - 1] ?? -1) : -1;
    tails[lo] = p;
  }
  const out: [number, number][] = [];
  for (let p = tails[tails.length - 1] ?? -1; p >= 0; p = previous[p] ?? -1) {
    const pair = pairs[p];
    if (pair) out.push(pair);
  }
  return out.reverse();
}

export const testing = { myers, occurrencePairs, MAX_EXACT_EDITS };
