import { HttpClient } from '../http-client';
import type { Logger } from '../logging/logger';
import type { AlertSenderMetrics } from './alert-sender-metrics';
import type { AlertmanagerEndpoint } from './alertmanager-endpoints';

/** An alert as Alertmanager's API takes it (times already in RFC 3339). */
export interface PostableAlert {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly generatorURL: string;
}

/** Upstream sends at most this many alerts in one request. */
const MAX_BATCH = 64;

/**
 * Sends rule alerts to the external Alertmanagers of `alerting.alertmanagers`, as Prometheus's
 * notifier: batches of 64 to every Alertmanager at once, each request within the entry's
 * `timeout`; a failed request is counted and logged, and the batch is dropped when no
 * Alertmanager took it (the next evaluation sends the alerts again).
 */
export class AlertSender {
  private readonly clients = new Map<AlertmanagerEndpoint, HttpClient>();
  private endpoints: readonly AlertmanagerEndpoint[] = [];

  constructor(
    endpoints: readonly AlertmanagerEndpoint[],
    private readonly metrics: AlertSenderMetrics,
    private readonly logger: Logger,
    private readonly userAgent: string,
  ) {
    this.setEndpoints(endpoints);
  }

  /**
   * The Alertmanagers to send to from now on, as discovery found them again (`file_sd_configs`
   * re-read every `refresh_interval`); unchanged URLs keep their connections.
   */
  setEndpoints(endpoints: readonly AlertmanagerEndpoint[]): void {
    const kept = new Map([...this.clients].map(([e, client]) => [e.url, { e, client }]));
    this.clients.clear();
    for (const endpoint of endpoints) {
      const old = kept.get(endpoint.url);
      if (old && old.e.config === endpoint.config) {
        kept.delete(endpoint.url);
        this.clients.set(endpoint, old.client);
      } else {
        this.clients.set(endpoint, new HttpClient(endpoint.config.httpConfig));
      }
      this.metrics.sent.inc({ alertmanager: endpoint.url }, 0);
      this.metrics.errors.inc({ alertmanager: endpoint.url }, 0);
    }
    for (const { client } of kept.values()) client.close();
    this.endpoints = endpoints;
    this.metrics.discovered.set(endpoints.length);
  }

  /** Sends the alerts; resolves when every Alertmanager answered or failed. */
  async send(alerts: readonly PostableAlert[]): Promise<void> {
    if (this.endpoints.length === 0) return;
    for (let from = 0; from < alerts.length; from += MAX_BATCH) {
      const batch = alerts.slice(from, from + MAX_BATCH);
      const body = JSON.stringify(batch);
      const results = await Promise.all(
        this.endpoints.map((endpoint) => this.post(endpoint, body, batch.length)),
      );
      if (!results.some(Boolean)) this.metrics.dropped.inc(batch.length);
    }
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
  }

  private async post(
    endpoint: AlertmanagerEndpoint,
    body: string,
    count: number,
  ): Promise<boolean> {
    const client = this.clients.get(endpoint) as HttpClient;
    try {
      const res = await client.send({
        method: 'POST',
        url: endpoint.url,
        headers: { 'Content-Type': 'application/json', 'User-Agent': this.userAgent },
        body,
        signal: AbortSignal.timeout(endpoint.config.timeoutMs),
      });
      if (res.status < 200 || res.status > 299)
        throw new Error(`bad response status ${res.status}`);
      this.metrics.sent.inc({ alertmanager: endpoint.url }, count);
      return true;
    } catch (error) {
      const e = error as Error;
      const err = e.name === 'TimeoutError' ? 'context deadline exceeded' : e.message;
      this.logger.error('Error sending alert', { alertmanager: endpoint.url, count, err });
      this.metrics.errors.inc({ alertmanager: endpoint.url }, count);
      return false;
    }
  }
}
