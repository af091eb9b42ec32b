import type { Alert } from '../../alerts/alert.model';
import type { RocketchatConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { NotifyError, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest } from '../templating/send-request';
import { buildRocketchatPayload } from './rocketchat-payload';

/**
 * Posts to Rocket.Chat's `api/v1/chat.postMessage` with the token in `X-Auth-Token` and its user
 * in `X-User-Id`: a 5xx is retried; a 2xx whose answer says `success: false` is an error that is
 * not, and one that is not JSON is retried, as upstream.
 */
export class RocketchatNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: RocketchatConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const payload = buildRocketchatPayload(this.config, text);
    const [token, tokenId] = await Promise.all([
      readSecret(this.config.token, this.config.token_file),
      readSecret(this.config.token_id, this.config.token_id_file),
    ]);
    const channel = `channel "${String(payload.channel ?? '')}"`;
    const res = await sendRequest(this.client, {
      method: 'POST',
      url: `${this.config.api_url.replace(/\/+$/, '')}/api/v1/chat.postMessage`,
      headers: { 'Content-Type': 'application/json', 'X-Auth-Token': token, 'X-User-Id': tokenId },
      body: `${JSON.stringify(payload)}\n`,
      signal: ctx.signal,
    });
    try {
      failOnStatus(res);
    } catch (error) {
      const e = error as NotifyError;
      throw new NotifyError(`${channel}: ${e.message}`, e.retryable, e.reason);
    }
    let answer: { success?: boolean; error?: string };
    try {
      answer = JSON.parse(res.body) as { success?: boolean; error?: string };
    } catch (error) {
      throw new NotifyError(
        `${channel}: could not unmarshal JSON response ${JSON.stringify(res.body)}: ${(error as Error).message}`,
        true,
      );
    }
    if (!answer.success) {
      throw new NotifyError(
        `${channel}: error response from Rocketchat: ${answer.error ?? ''}`,
        false,
        'clientError',
      );
    }
  }

  close(): void {
    this.client.close();
  }
}
