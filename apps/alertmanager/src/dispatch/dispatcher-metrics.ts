import { Gauge, Summary, type Registry } from 'prom-client';

/** The dispatcher's metrics, registered once per server and shared across config reloads. */
export class DispatcherMetrics {
  readonly aggregationGroups: Gauge;
  readonly processingDuration: Summary;

  constructor(registry: Registry) {
    this.aggregationGroups = new Gauge({
      name: 'alertmanager_dispatcher_aggregation_groups',
      help: 'Number of active aggregation groups',
      registers: [registry],
    });
    this.processingDuration = new Summary({
      name: 'alertmanager_dispatcher_alert_processing_duration_seconds',
      help: 'Summary of latencies for the processing of alerts.',
      registers: [registry],
    });
  }
}
