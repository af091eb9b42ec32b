import type { Alert } from '../../alerts/alert.model';
import type { PushoverConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { goQueryString } from '../templating/go-query';
import { pushoverParameters } from './pushover-parameters';

/** Pushover's message endpoint; upstream has no setting for it (a `proxy_url` reaches another). */
export const PUSHOVER_API_URL = 'https://api.pushover.net/1/messages.json';

/**
 * Sends a Pushover message: a POST with an empty `text/plain` body and every parameter in the
 * query string, as upstream. Only 5xx is retried.
 */
export class PushoverNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: PushoverConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
    private readonly apiUrl = PUSHOVER_API_URL,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text, html } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const params = pushoverParameters({
      config: this.config,
      text,
      html,
      token: await readSecret(this.config.token, this.config.token_file),
      userKey: await readSecret(this.config.user_key, this.config.user_key_file),
    });
    const url = new URL(this.apiUrl);
    url.search = goQueryString(params);
    const res = await sendRequest(this.client, {
      method: 'POST',
      url: url.href,
      headers: { 'Content-Type': 'text/plain' },
      body: '',
      signal: ctx.signal,
    });
    failOnStatus(res);
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
