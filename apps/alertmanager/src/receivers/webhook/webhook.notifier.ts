import { readFile } from 'node:fs/promises';
import type { Alert } from '../../alerts/alert.model';
import type { WebhookConfig } from '../../config';
import { NotifyError, reasonForStatus, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import { HttpClient } from '../../http-client/http-client';
import { renderCustomPayload } from './custom-payload';
import { buildWebhookPayload } from './webhook-payload';
import { defaultTemplates, type TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';

/** Thrown into the request when the webhook's own `timeout` passes. */
class WebhookTimeoutError extends Error {}

/** Formats a timeout as Go prints durations in upstream's message (e.g. `5s`, `1.5s`). */
function seconds(ms: number): string {
  return `${ms / 1000}s`;
}

/**
 * POSTs the version 4 JSON payload to a webhook. 2xx is success; 5xx and network errors are
 * retryable; any other status fails for good, as upstream's webhook notifier.
 */
export class WebhookNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: WebhookConfig,
    private readonly externalUrl: string,
    client?: HttpClient,
    private readonly templates: TemplateSet = defaultTemplates(),
  ) {
    this.client = client ?? new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const payload = buildWebhookPayload({
      receiver: ctx.receiver,
      groupKey: ctx.groupKey,
      groupLabels: ctx.groupLabels,
      externalURL: this.externalUrl,
      alerts,
      maxAlerts: this.config.max_alerts,
      now: ctx.now,
    });
    // A custom payload (upstream 0.32+) replaces the version 4 message, rendered over its data.
    const body =
      this.config.payload === undefined
        ? JSON.stringify(payload)
        : JSON.stringify(this.customPayload(ctx, alerts));
    const raw = this.config.url_file
      ? (await readFile(this.config.url_file, 'utf8')).trim()
      : (this.config.url?.reveal() ?? '');
    // Since upstream 0.31 the URL may be a template, rendered per notification.
    const url = raw.includes('{{')
      ? notificationRenderers(this.templates, this.externalUrl, ctx, alerts).text(raw)
      : raw;
    const signals = [ctx.signal];
    let timer: NodeJS.Timeout | undefined;
    if (this.config.timeout > 0) {
      // A request timeout is about the network, so it runs on real time, not the flush clock.
      const timeout = new AbortController();
      const reason = new WebhookTimeoutError(
        `configured webhook timeout reached (${seconds(this.config.timeout)})`,
      );
      timer = setTimeout(() => timeout.abort(reason), this.config.timeout).unref();
      signals.push(timeout.signal);
    }
    const signal = AbortSignal.any(signals);
    let res;
    try {
      res = await this.client.send({
        method: 'POST',
        url,
        headers: { 'Content-Type': 'application/json' },
        body,
        signal,
      });
    } catch (err) {
      // The URL may hold a secret, so messages name only the failure, as upstream redacts it.
      const cause = signal.aborted ? signal.reason : err;
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new NotifyError(`Post "<redacted>": ${message}`, true);
    } finally {
      clearTimeout(timer);
    }
    if (res.status >= 200 && res.status < 300) return;
    const details = res.body.trim();
    throw new NotifyError(
      `unexpected status code ${res.status}${details ? `: ${details}` : ''}`,
      res.status >= 500 && res.status < 600,
      reasonForStatus(res.status),
    );
  }

  private customPayload(ctx: NotifyContext, alerts: readonly Alert[]): unknown {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    try {
      return renderCustomPayload(this.config.payload, text);
    } catch (error) {
      throw new NotifyError(`failed to render custom payload: ${(error as Error).message}`, false);
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
