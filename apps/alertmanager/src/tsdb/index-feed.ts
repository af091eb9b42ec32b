import { IndexChangesWriter, type IndexChanges } from './index-changes';
import type { MemorySeries } from './memory-series';
import type { MemoryStore, SeriesListener } from './memory-store';

/**
 * Collects what changes in a store's index (series created and dropped) for its replicas on
 * query threads, to be sent as one batch before the next query.
 */
export class IndexFeed implements SeriesListener {
  private batch = new IndexChangesWriter();

  constructor(private readonly store: MemoryStore) {
    store.listen(this);
  }

  seriesCreated(series: MemorySeries): void {
    this.batch.add(series.id, series.labels.names, series.labels.values);
  }

  seriesDropped(ids: readonly number[]): void {
    for (const id of ids) this.batch.drop(id);
  }

  /** The whole index as one batch, for a replica that starts empty. */
  everything(): IndexChanges {
    const writer = new IndexChangesWriter();
    for (const s of this.store.all()) writer.add(s.id, s.labels.names, s.labels.values);
    return writer.finish();
  }

  /** The changes since the last call, or undefined when there are none. */
  take(): IndexChanges | undefined {
    if (this.batch.empty) return undefined;
    const changes = this.batch.finish();
    this.batch = new IndexChangesWriter();
    return changes;
  }

  close(): void {
    this.store.unlisten(this);
  }
}
