/**
 * The rows a table following the newest rows renders: as many as its viewport holds (the
 * size of the range the virtualizer computed from the last scroll offset) and `overscan`
 * above them. Computed from the count alone, so the rows arrive in the same frame as the
 * scroll to the bottom; the range of the previous offset would leave the viewport blank
 * whenever more rows than a screenful arrived in one frame.
 */
export function followRange(range: { startIndex: number; endIndex: number; count: number }, overscan: number): number[] {
  const visible = Math.max(0, range.endIndex - range.startIndex + 1);
  const from = Math.max(0, range.count - visible - overscan);
  const indexes: number[] = [];
  for (let index = from; index < range.count; index++) indexes.push(index);
  return indexes;
}
