import type { Alert } from '../../alerts/alert.model';
import type { IncidentioConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { NotifyError, reasonForStatus, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import { buildWebhookPayload } from '../webhook/webhook-payload';

/** incident.io refuses larger messages; a larger one keeps only its first alert. */
const MAX_PAYLOAD_BYTES = 512 * 1024;

/** The details of an incident.io error answer: its message, error and errors, joined. */
function errorDetails(body: string): string {
  try {
    const e = JSON.parse(body) as { message?: string; error?: string; errors?: string[] };
    return [e.message, e.error, e.errors?.length ? e.errors.join(', ') : undefined]
      .filter((part): part is string => !!part)
      .join(': ');
  } catch {
    return '';
  }
}

/**
 * Posts the group to an incident.io alert source as upstream does: the webhook message with
 * `version` "1" (at most `max_alerts` alerts, the rest counted in `truncatedAlerts`), the
 * alert source token as a Bearer token, within `timeout`; 5xx and 429 are retried.
 */
export class IncidentioNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: IncidentioConfig,
    private readonly externalUrl: string,
  ) {
    const token = config.alert_source_token || config.alert_source_token_file;
    this.client = new HttpClient(
      token
        ? {
            ...config.http_config,
            authorization: {
              type: 'Bearer',
              credentials: config.alert_source_token,
              credentials_file: config.alert_source_token_file,
            },
          }
        : config.http_config,
    );
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const message = {
      ...buildWebhookPayload({
        receiver: ctx.receiver,
        groupKey: ctx.groupKey,
        groupLabels: ctx.groupLabels,
        externalURL: this.externalUrl,
        alerts,
        maxAlerts: this.config.max_alerts,
        now: ctx.now,
      }),
      version: '1',
    };
    let body = `${JSON.stringify(message)}\n`;
    if (Buffer.byteLength(body) > MAX_PAYLOAD_BYTES) {
      body = `${JSON.stringify({ ...message, alerts: message.alerts.slice(0, 1) })}\n`;
    }
    const url = await readSecret(this.config.url, this.config.url_file);
    const signals = [ctx.signal];
    if (this.config.timeout > 0) signals.push(AbortSignal.timeout(this.config.timeout));
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
    } catch (error) {
      const why =
        signal.aborted && !ctx.signal.aborted
          ? `configured incident.io timeout reached (${this.config.timeout / 1000}s)`
          : (error as Error).message;
      throw new NotifyError(`Post "<redacted>": ${why}`, true);
    }
    if (res.status >= 200 && res.status < 300) return;
    const details = errorDetails(res.body);
    throw new NotifyError(
      `unexpected status code ${res.status}${details ? `: ${details}` : ''}`,
      (res.status >= 500 && res.status < 600) || res.status === 429,
      reasonForStatus(res.status),
    );
  }

  close(): void {
    this.client.close();
  }
}
