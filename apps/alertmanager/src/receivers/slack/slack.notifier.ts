import type { Alert } from '../../alerts/alert.model';
import type { SlackConfig } from '../../config';
import { NotifyError, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { postJson } from '../templating/post-json';
import { buildSlackPayload } from './slack-payload';
import { notificationRenderers } from '../templating/notification-text';

/**
 * Posts a Slack message (one attachment) to `api_url` or the global `slack_api_url`. 2xx is
 * success; 429 and 5xx are retried; other statuses fail for good.
 */
export class SlackNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: SlackConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
    client?: HttpClient,
  ) {
    this.client = client ?? new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const payload = buildSlackPayload(this.config, text);
    const url = await readSecret(this.config.api_url, this.config.api_url_file);
    if (!url)
      throw new NotifyError('no global Slack API URL set either inline or in a file', false);
    await postJson(
      this.client,
      url,
      payload,
      ctx.signal,
      (s) => s === 429 || (s >= 500 && s < 600),
    );
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
