import { Counter, Gauge, type Registry } from 'prom-client';

/** The exemplar store's metrics under Prometheus's names and help texts. */
export class ExemplarMetrics {
  readonly appended: Counter;
  readonly inStorage: Gauge;
  readonly seriesInStorage: Gauge;
  readonly lastTimestampSeconds: Gauge;
  readonly outOfOrder: Counter;
  readonly maxExemplars: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    const name = (suffix: string) => `prometheus_tsdb_exemplar_${suffix}`;
    this.appended = new Counter({
      name: name('exemplars_appended_total'),
      help: 'Total number of appended exemplars.',
      registers,
    });
    this.inStorage = new Gauge({
      name: name('exemplars_in_storage'),
      help: 'Number of exemplars currently in circular storage.',
      registers,
    });
    this.seriesInStorage = new Gauge({
      name: name('series_with_exemplars_in_storage'),
      help: 'Number of series with exemplars currently in circular storage.',
      registers,
    });
    this.lastTimestampSeconds = new Gauge({
      name: name('last_exemplars_timestamp_seconds'),
      // Prometheus's help text as it reads, without spaces where its lines join.
      help:
        'The timestamp of the oldest exemplar stored in circular storage. Useful to check for what time' +
        'range the current exemplar buffer limit allows. This usually means the last timestamp' +
        'for all exemplars for a typical setup. This is not true though if one of the series timestamp is in future compared to rest series.',
      registers,
    });
    this.outOfOrder = new Counter({
      name: name('out_of_order_exemplars_total'),
      help: 'Total number of out of order exemplar ingestion failed attempts.',
      registers,
    });
    this.maxExemplars = new Gauge({
      name: name('max_exemplars'),
      help: 'Total number of exemplars the exemplar storage can store, resizeable.',
      registers,
    });
  }
}
