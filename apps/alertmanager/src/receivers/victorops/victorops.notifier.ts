import type { Alert } from '../../alerts/alert.model';
import type { VictoropsConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { allResolved, groupKeyHash } from '../templating/group-status';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { buildVictoropsPayload } from './victorops-payload';

/**
 * Posts a VictorOps (Splunk On-Call) REST event to `<api_url><api key>/<routing key>`; the
 * routing key may be a template. Only 5xx is retried.
 */
export class VictoropsNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: VictoropsConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const key = await readSecret(this.config.api_key, this.config.api_key_file);
    const url = new URL(this.config.api_url);
    url.pathname += `${key}/${text(this.config.routing_key)}`;
    const payload = buildVictoropsPayload(
      this.config,
      text,
      groupKeyHash(ctx.groupKey),
      allResolved(alerts, ctx.now),
    );
    const res = await sendRequest(this.client, {
      method: 'POST',
      url: url.href,
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
