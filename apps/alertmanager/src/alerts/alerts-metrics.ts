import { Counter, Gauge, type Registry } from 'prom-client';
import type { Clock } from '../time/clock';
import type { AlertStore } from './alert-store';
import { alertStatus, type AlertMuting } from './alert-status';
import type { IngestResult } from './alert-ingest';
import { isResolvedAt } from './alert.model';

/**
 * Upstream's alert metrics: `alertmanager_alerts{state}` counted from the store at each scrape,
 * and the received and invalid counters the API feeds through {@link AlertsMetrics.record}.
 */
export class AlertsMetrics {
  private readonly received: Counter<'status'>;
  private readonly invalid: Counter;

  constructor(registry: Registry, store: AlertStore, muting: AlertMuting, clock: Clock) {
    new Gauge({
      name: 'alertmanager_alerts',
      help: 'How many alerts by state.',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const now = clock.now();
        let active = 0;
        let suppressed = 0;
        for (const alert of store.list()) {
          if (isResolvedAt(alert, now)) continue;
          if (alertStatus(muting, alert.labels, now).state === 'suppressed') suppressed++;
          else active++;
        }
        this.set({ state: 'active' }, active);
        this.set({ state: 'suppressed' }, suppressed);
        this.set({ state: 'unprocessed' }, 0);
      },
    });
    this.received = new Counter({
      name: 'alertmanager_alerts_received_total',
      help: 'The total number of received alerts.',
      labelNames: ['status'],
      registers: [registry],
    });
    this.received.inc({ status: 'firing' }, 0);
    this.received.inc({ status: 'resolved' }, 0);
    this.invalid = new Counter({
      name: 'alertmanager_alerts_invalid_total',
      help: 'The total number of received alerts that were invalid.',
      registers: [registry],
    });
  }

  /** Counts one posted batch. */
  record(result: IngestResult): void {
    if (result.firing > 0) this.received.inc({ status: 'firing' }, result.firing);
    if (result.resolved > 0) this.received.inc({ status: 'resolved' }, result.resolved);
    if (result.errors.length > 0) this.invalid.inc(result.errors.length);
  }
}
