import { Counter, Histogram, type Registry } from 'prom-client';
import { FAILURE_REASONS } from './notifier';

/**
 * The notification pipeline's metrics, registered once per server and shared by every pipeline
 * a config reload builds (prom-client refuses to register a name twice).
 */
export class NotifyMetrics {
  readonly notifications: Counter<'integration'>;
  readonly notificationsFailed: Counter<'integration' | 'reason'>;
  readonly requests: Counter<'integration'>;
  readonly requestsFailed: Counter<'integration'>;
  readonly latency: Histogram<'integration'>;
  readonly claims: Counter<'integration' | 'outcome'>;

  constructor(registry: Registry) {
    const registers = [registry];
    this.notifications = new Counter({
      name: 'alertmanager_notifications_total',
      help: 'The total number of attempted notifications.',
      labelNames: ['integration'],
      registers,
    });
    this.notificationsFailed = new Counter({
      name: 'alertmanager_notifications_failed_total',
      help: 'The total number of failed notifications.',
      labelNames: ['integration', 'reason'],
      registers,
    });
    this.requests = new Counter({
      name: 'alertmanager_notification_requests_total',
      help: 'The total number of attempted notification requests.',
      labelNames: ['integration'],
      registers,
    });
    this.requestsFailed = new Counter({
      name: 'alertmanager_notification_requests_failed_total',
      help: 'The total number of failed notification requests.',
      labelNames: ['integration'],
      registers,
    });
    this.latency = new Histogram({
      name: 'alertmanager_notification_latency_seconds',
      help: 'The latency of notifications in seconds.',
      labelNames: ['integration'],
      buckets: [1, 5, 10, 15, 20],
      registers,
    });
    this.claims = new Counter({
      name: 'alertmanager_cluster_notification_claims_total',
      help: 'Notifications claimed by replicas: won (sent here), lost (sent by another replica), unavailable (sent without a claim).',
      labelNames: ['integration', 'outcome'],
      registers,
    });
  }

  /** Counts one claim attempt of a clustered replica. */
  countClaim(integration: string, outcome: string): void {
    this.claims.labels(integration, outcome).inc();
  }

  /** Creates the zero series of an integration, as upstream does for every known integration. */
  initIntegration(integration: string): void {
    this.notifications.labels(integration).inc(0);
    this.requests.labels(integration).inc(0);
    this.requestsFailed.labels(integration).inc(0);
    for (const reason of FAILURE_REASONS)
      this.notificationsFailed.labels(integration, reason).inc(0);
  }
}
