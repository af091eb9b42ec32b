import type { Alert } from '../../alerts/alert.model';
import type { WebexConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import type { Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { failOnStatus, sendRequest, truncateBytes } from '../templating/send-request';

/** Webex's limit on a message, in bytes. */
const MAX_MESSAGE_BYTES = 7439;

/**
 * Posts a Markdown message to a Webex room (`{markdown, roomId}`); the bot token travels in
 * `http_config.authorization`. Only 5xx is retried.
 */
export class WebexNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: WebexConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const markdown = truncateBytes(text(this.config.message), MAX_MESSAGE_BYTES);
    const roomId = text(this.config.room_id);
    const res = await sendRequest(this.client, {
      method: 'POST',
      url: this.config.api_url,
      headers: { 'Content-Type': 'application/json' },
      body: `${JSON.stringify({ markdown, ...(roomId ? { roomId } : {}) })}\n`,
      signal: ctx.signal,
    });
    failOnStatus(res);
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
