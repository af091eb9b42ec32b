/** Items sorted per slice before the runs are merged. */
const RUN = 4096;
/** Items merged between two pauses. */
const MERGE_SLICE = 32_768;

/**
 * A stable sort that pauses between slices of work: runs of 4,096 items are sorted natively,
 * then merged pairwise a slice at a time, so sorting hundreds of thousands of alerts never
 * holds the event loop for more than a few milliseconds.
 */
export async function sortInSlices<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  pause: () => Promise<void>,
): Promise<T[]> {
  let from = [...items];
  if (from.length <= RUN) return from.sort(compare);
  for (let start = 0; start < from.length; start += RUN) {
    if (start > 0) await pause();
    const run = from.slice(start, start + RUN).sort(compare);
    for (let i = 0; i < run.length; i++) from[start + i] = run[i];
  }
  let to = new Array<T>(from.length);
  let sinceLast = 0;
  for (let width = RUN; width < from.length; width *= 2) {
    for (let left = 0; left < from.length; left += 2 * width) {
      const mid = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let i = left;
      let j = mid;
      for (let k = left; k < end; k++) {
        to[k] = j >= end || (i < mid && compare(from[i], from[j]) <= 0) ? from[i++] : from[j++];
        if (++sinceLast === MERGE_SLICE) {
          sinceLast = 0;
          await pause();
        }
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
