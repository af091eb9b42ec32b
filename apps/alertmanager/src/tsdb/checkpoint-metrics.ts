import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The metric store's checkpoint and log metrics under Prometheus's names and help texts. Without
 * a registry they still count (the store's tests read them) but are shown nowhere.
 */
export class CheckpointMetrics {
  readonly creations: Counter;
  readonly creationsFailed: Counter;
  /** Removals of the log segments a new checkpoint holds. */
  readonly truncations: Counter;
  readonly truncationsFailed: Counter;
  readonly currentSegment: Gauge;

  constructor(registry?: Registry) {
    const registers = registry === undefined ? [] : [registry];
    this.creations = new Counter({
      name: 'prometheus_tsdb_checkpoint_creations_total',
      help: 'Total number of checkpoint creations attempted.',
      registers,
    });
    this.creationsFailed = new Counter({
      name: 'prometheus_tsdb_checkpoint_creations_failed_total',
      help: 'Total number of checkpoint creations that failed.',
      registers,
    });
    this.truncations = new Counter({
      name: 'prometheus_tsdb_wal_truncations_total',
      help: 'Total number of write log truncations attempted.',
      registers,
    });
    this.truncationsFailed = new Counter({
      name: 'prometheus_tsdb_wal_truncations_failed_total',
      help: 'Total number of write log truncations that failed.',
      registers,
    });
    this.currentSegment = new Gauge({
      name: 'prometheus_tsdb_wal_segment_current',
      help: 'Write log segment index that TSDB is currently writing to.',
      registers,
    });
  }
}
