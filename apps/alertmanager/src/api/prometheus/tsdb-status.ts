import type { Clock } from '../../time/clock';
import { headStats, type HeadStats } from '../../tsdb/head-stats';
import { METRIC_NAME } from '../../tsdb/labels';
import type { MemoryStore } from '../../tsdb/memory-store';
import type { PostingsStats } from '../../tsdb/postings-stats';
import { JsonText } from './prometheus-reply';

const GO_MAX_INT64 = '9223372036854775807';
const GO_MIN_INT64 = '-9223372036854775808';

/** How long upstream's head keeps its cardinality lists before computing them again, seconds. */
export const CARDINALITY_CACHE_SECONDS = 30;

/** A time of the head as Go's int64 prints it: an empty head has the extremes as its times. */
function int64Text(ms: number): string {
  if (ms === Infinity) return GO_MAX_INT64;
  if (ms === -Infinity) return GO_MIN_INT64;
  return String(Math.trunc(ms));
}

/**
 * `/api/v1/status/tsdb` as Prometheus 2.42 answers it, over the series in memory: `headStats` and
 * the four top-10 lists of the postings index (2.42 takes no `limit` and always keeps 10).
 * - As upstream's head, the lists and `numLabelPairs` are computed at most once every 30 s (whole
 *   seconds of the clock, a cache older than 30 s is dropped); `headStats`' other fields are read
 *   on every request.
 * - Both read the store in slices between turns of the event loop; requests that come while they
 *   are read share that reading.
 * - An empty store's `minTime` and `maxTime` are Go's largest and smallest int64, as upstream's
 *   empty head; they are written as text since a JavaScript number does not hold them exactly.
 */
export class TsdbStatus {
  private cached: { atSecond: number; stats: PostingsStats } | undefined;
  private running: Promise<JsonText> | undefined;

  constructor(
    private readonly store: MemoryStore,
    private readonly clock: Clock,
  ) {}

  answer(): Promise<JsonText> {
    this.running ??= this.compute().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async compute(): Promise<JsonText> {
    const head = await headStats(this.store);
    return statusJson(head, await this.postingsStats());
  }

  private async postingsStats(): Promise<PostingsStats> {
    const second = Math.floor(this.clock.now() / 1000);
    if (this.cached && second - this.cached.atSecond <= CARDINALITY_CACHE_SECONDS) {
      return this.cached.stats;
    }
    const stats = await this.store.postingsStats(METRIC_NAME);
    this.cached = { atSecond: Math.floor(this.clock.now() / 1000), stats };
    return stats;
  }
}

/** The answer's JSON, in upstream's field order. */
function statusJson(head: HeadStats, postings: PostingsStats): JsonText {
  const headText =
    `{"numSeries":${head.numSeries},"numLabelPairs":${postings.numLabelPairs},` +
    `"chunkCount":${head.chunkCount},"minTime":${int64Text(head.minTime)},` +
    `"maxTime":${int64Text(head.maxTime)}}`;
  const lists = JSON.stringify({
    seriesCountByMetricName: postings.seriesCountByMetricName,
    labelValueCountByLabelName: postings.labelValueCountByLabelName,
    memoryInBytesByLabelName: postings.memoryInBytesByLabelName,
    seriesCountByLabelValuePair: postings.seriesCountByLabelValuePair,
  });
  return new JsonText(`{"headStats":${headText},${lists.slice(1)}`);
}
