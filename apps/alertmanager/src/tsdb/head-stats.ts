import { nextTurn } from '../time/next-turn';
import type { MemoryStore } from './memory-store';
import { STATS_SLICE } from './postings-stats';

/** What `/api/v1/status/tsdb` says of the head: here, the series and chunks in memory. */
export interface HeadStats {
  readonly numSeries: number;
  /**
   * Chunks linked to their series in memory, the open ones included (cold ones on disk are not),
   * and dropped ones a running query still holds, as upstream's gauge of head chunks.
   */
  readonly chunkCount: number;
  /** First sample time in memory (ms); Infinity when there is none, as upstream's empty head. */
  readonly minTime: number;
  /** Last sample time in memory (ms); -Infinity when there is none. */
  readonly maxTime: number;
}

/**
 * The head statistics of the store: every indexed series counts (as every series of upstream's
 * head index does), the times and chunks are those in memory. It yields to the event loop
 * (`pause`) after every `slice` series.
 */
export async function headStats(
  store: MemoryStore,
  pause: () => Promise<void> = nextTurn,
  slice = STATS_SLICE,
): Promise<HeadStats> {
  let minTime = Infinity;
  let maxTime = -Infinity;
  let seen = 0;
  for (const series of store.all()) {
    const min = series.memoryMinTime;
    const max = series.memoryMaxTime;
    if (min < minTime) minTime = min;
    if (max > maxTime) maxTime = max;
    if (++seen % slice === 0) await pause();
  }
  return { numSeries: store.seriesCount, chunkCount: store.memory.table.size, minTime, maxTime };
}
