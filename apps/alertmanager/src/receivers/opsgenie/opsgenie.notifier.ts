import type { Alert } from '../../alerts/alert.model';
import type { OpsgenieConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { allResolved, commonLabels, groupKeyHash } from '../templating/group-status';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { opsgenieRequests } from './opsgenie-requests';

/**
 * Creates, updates and closes Opsgenie alerts through its Alert API v2, authenticated with
 * `GenieKey <api key>` (the key may be a template). 5xx and 429 are retried.
 */
export class OpsgenieNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: OpsgenieConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const requests = opsgenieRequests({
      config: this.config,
      render: text,
      alias: groupKeyHash(ctx.groupKey),
      resolved: allResolved(alerts, ctx.now),
      commonLabels: commonLabels(alerts),
    });
    const key = text(await readSecret(this.config.api_key, this.config.api_key_file));
    for (const req of requests) {
      const res = await sendRequest(this.client, {
        method: req.method,
        url: req.url,
        headers: { 'Content-Type': 'application/json', Authorization: `GenieKey ${key}` },
        body: `${JSON.stringify(req.body)}\n`,
        signal: ctx.signal,
      });
      failOnStatus(res, [429]);
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
