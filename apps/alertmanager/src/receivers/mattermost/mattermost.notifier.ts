import type { Alert } from '../../alerts/alert.model';
import type { MattermostConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { NotifyError, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { buildMattermostPayload } from './mattermost-payload';

/** Posts to a Mattermost incoming webhook. Only 5xx is retried, as upstream's default retrier. */
export class MattermostNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: MattermostConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const payload = buildMattermostPayload(this.config, text);
    const url = await readSecret(this.config.webhook_url, this.config.webhook_url_file);
    if (url === '') throw new NotifyError('webhook url missing', false);
    const res = await sendRequest(this.client, {
      method: 'POST',
      url,
      headers: { 'Content-Type': 'application/json' },
      body: `${JSON.stringify(payload)}\n`,
      signal: ctx.signal,
    });
    try {
      failOnStatus(res);
    } catch (error) {
      const e = error as NotifyError;
      throw new NotifyError(
        `channel "${String(payload.channel ?? '')}": ${e.message}`,
        e.retryable,
        e.reason,
      );
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
