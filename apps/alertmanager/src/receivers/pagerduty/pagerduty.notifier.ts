import { isResolvedAt, type Alert } from '../../alerts/alert.model';
import type { PagerdutyConfig } from '../../config';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { notificationRenderers } from '../templating/notification-text';
import { postJson } from '../templating/post-json';
import { buildV1Event, buildV2Event, PAGERDUTY_V1_URL } from './pagerduty-message';

/**
 * Sends a PagerDuty event: Events API v1 when a service key is configured (it wins over a
 * routing key, as in upstream 0.25), else v2 to `url`. The event resolves only when every alert
 * is resolved. v1 retries 403 and 5xx; v2 retries 429 and 5xx.
 */
export class PagerdutyNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: PagerdutyConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const resolved = alerts.every((a) => isResolvedAt(a, ctx.now));
    const { config } = this;
    const v1 = Boolean(config.service_key || config.service_key_file);
    const key = v1
      ? await readSecret(config.service_key, config.service_key_file)
      : await readSecret(config.routing_key, config.routing_key_file);
    const input = { config, render: text, groupKey: ctx.groupKey, resolved, key };
    if (v1) {
      await postJson(
        this.client,
        // Upstream's Events API v1 endpoint is fixed; a proxy_url is the way to reach another.
        PAGERDUTY_V1_URL,
        buildV1Event(input),
        ctx.signal,
        (s) => s === 403 || s >= 500,
      );
    } else {
      await postJson(
        this.client,
        config.url,
        buildV2Event(input),
        ctx.signal,
        (s) => s === 429 || s >= 500,
      );
    }
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
