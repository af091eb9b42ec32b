import type { Alert } from '../../alerts/alert.model';
import type { DiscordConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { allResolved } from '../templating/group-status';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { buildDiscordPayload } from './discord-payload';

/** Posts a message with one embed to a Discord webhook. Only 5xx is retried. */
export class DiscordNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: DiscordConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const payload = buildDiscordPayload(this.config, text, allResolved(alerts, ctx.now));
    const url = await readSecret(this.config.webhook_url, this.config.webhook_url_file);
    const res = await sendRequest(this.client, {
      method: 'POST',
      url,
      headers: { 'Content-Type': 'application/json' },
      body: `${JSON.stringify(payload)}\n`,
      signal: ctx.signal,
    });
    failOnStatus(res);
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
