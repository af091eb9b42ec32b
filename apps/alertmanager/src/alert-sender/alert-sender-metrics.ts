import { Counter, Gauge, type Registry } from 'prom-client';

/** The notifier's metrics under Prometheus's names. */
export class AlertSenderMetrics {
  readonly sent: Counter<'alertmanager'>;
  readonly errors: Counter<'alertmanager'>;
  readonly dropped: Counter;
  readonly discovered: Gauge;

  constructor(registry: Registry) {
    const registers = [registry];
    this.sent = new Counter({
      name: 'prometheus_notifications_sent_total',
      help: 'Total number of alerts sent.',
      labelNames: ['alertmanager'],
      registers,
    });
    this.errors = new Counter({
      name: 'prometheus_notifications_errors_total',
      help: 'Total number of errors sending alert notifications.',
      labelNames: ['alertmanager'],
      registers,
    });
    this.dropped = new Counter({
      name: 'prometheus_notifications_dropped_total',
      help: 'Total number of alerts dropped due to errors when sending to Alertmanager.',
      registers,
    });
    this.discovered = new Gauge({
      name: 'prometheus_notifications_alertmanagers_discovered',
      help: 'The number of alertmanagers discovered and active.',
      registers,
    });
  }
}
