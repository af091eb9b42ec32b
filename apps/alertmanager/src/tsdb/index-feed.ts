import type { MemorySeries } from './memory-series';
import type { MemoryStore, SeriesListener } from './memory-store';
import type { CreatedSeries, IndexChanges } from './series-replica';

/**
 * Collects what changes in a store's index (series created and dropped) for its replicas on
 * query threads, to be sent as one batch before the next query.
 */
export class IndexFeed implements SeriesListener {
  private created: CreatedSeries[] = [];
  private dropped: number[] = [];

  constructor(private readonly store: MemoryStore) {
    store.listen(this);
  }

  seriesCreated(series: MemorySeries): void {
    this.created.push([series.id, series.labels.names, series.labels.values]);
  }

  seriesDropped(ids: readonly number[]): void {
    for (const id of ids) this.dropped.push(id);
  }

  /** The whole index as one batch, for a replica that starts empty. */
  everything(): IndexChanges {
    const created: CreatedSeries[] = [];
    for (const s of this.store.all()) created.push([s.id, s.labels.names, s.labels.values]);
    return { created, dropped: [] };
  }

  /** The changes since the last call, or undefined when there are none. */
  take(): IndexChanges | undefined {
    if (this.created.length === 0 && this.dropped.length === 0) return undefined;
    const changes = { created: this.created, dropped: this.dropped };
    this.created = [];
    this.dropped = [];
    return changes;
  }

  /** Changes waiting to be sent. */
  get pending(): number {
    return this.created.length + this.dropped.length;
  }

  close(): void {
    this.store.unlisten(this);
  }
}
