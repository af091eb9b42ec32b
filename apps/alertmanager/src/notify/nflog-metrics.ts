import { Counter, Gauge, Histogram, Summary, type Registry } from 'prom-client';

/** The notification log's `alertmanager_nflog_*` metrics, registered once per server. */
export class NflogMetrics {
  readonly gcDuration: Summary;
  readonly snapshotDuration: Summary;
  readonly snapshotSize: Gauge;
  readonly queries: Counter;
  readonly queryErrors: Counter;
  readonly queryDuration: Histogram;
  readonly maintenance: Counter;
  readonly maintenanceErrors: Counter;

  constructor(registry: Registry) {
    const registers = [registry];
    this.gcDuration = new Summary({
      name: 'alertmanager_nflog_gc_duration_seconds',
      help: 'Duration of the last notification log garbage collection cycle.',
      registers,
    });
    this.snapshotDuration = new Summary({
      name: 'alertmanager_nflog_snapshot_duration_seconds',
      help: 'Duration of the last notification log snapshot.',
      registers,
    });
    this.snapshotSize = new Gauge({
      name: 'alertmanager_nflog_snapshot_size_bytes',
      help: 'Size of the last notification log snapshot in bytes.',
      registers,
    });
    this.queries = new Counter({
      name: 'alertmanager_nflog_queries_total',
      help: 'Number of notification log queries were received.',
      registers,
    });
    this.queryErrors = new Counter({
      name: 'alertmanager_nflog_query_errors_total',
      help: 'Number notification log received queries that failed.',
      registers,
    });
    this.queryDuration = new Histogram({
      name: 'alertmanager_nflog_query_duration_seconds',
      help: 'Duration of notification log query evaluation.',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.maintenance = new Counter({
      name: 'alertmanager_nflog_maintenance_total',
      help: 'How many maintenances were executed for the notification log.',
      registers,
    });
    this.maintenanceErrors = new Counter({
      name: 'alertmanager_nflog_maintenance_errors_total',
      help: 'How many maintenances were executed for the notification log that failed.',
      registers,
    });
  }
}
