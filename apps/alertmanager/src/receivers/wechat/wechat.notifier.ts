import type { Alert } from '../../alerts/alert.model';
import type { WechatConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { NotifyError, reasonForStatus, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers, type RenderText } from '../templating/notification-text';
import { sendRequest } from '../templating/send-request';
import { goQueryString } from '../templating/go-query';
import { buildWechatMessage } from './wechat-message';

/** How long upstream reuses an access token before asking for a new one. */
const TOKEN_LIFETIME_MS = 2 * 3600_000;

/** WeChat's error code for an expired access token: fetch a new one and retry. */
const TOKEN_EXPIRED = 42001;

/**
 * Sends a WeChat Work application message: an access token from `gettoken` (kept two hours,
 * measured on the flush clock), then `message/send`. A non-200 status and an expired token are
 * retried; other API errors (`errcode`) are not.
 */
export class WechatNotifier implements Notifier {
  private readonly client: HttpClient;
  private token: { value: string; at: number } | undefined;

  constructor(
    private readonly config: WechatConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    if (!this.token || ctx.now - this.token.at > TOKEN_LIFETIME_MS) {
      this.token = { value: await this.fetchToken(ctx, text), at: ctx.now };
    }
    const url = new URL(`${this.config.api_url}message/send`);
    url.search = goQueryString({ access_token: this.token.value });
    const res = await sendRequest(this.client, {
      method: 'POST',
      url: url.href,
      headers: { 'Content-Type': 'application/json' },
      body: `${JSON.stringify(buildWechatMessage(this.config, text))}\n`,
      signal: ctx.signal,
    });
    if (res.status !== 200) {
      throw new NotifyError(
        `unexpected status code ${res.status}`,
        true,
        reasonForStatus(res.status),
      );
    }
    let answer: { errcode?: number; errmsg?: string };
    try {
      answer = JSON.parse(res.body) as typeof answer;
    } catch (err) {
      throw new NotifyError((err as Error).message, true);
    }
    if (!answer.errcode) return;
    if (answer.errcode === TOKEN_EXPIRED) {
      this.token = undefined;
      throw new NotifyError(answer.errmsg ?? '', true);
    }
    throw new NotifyError(answer.errmsg ?? '', false);
  }

  private async fetchToken(ctx: NotifyContext, text: RenderText): Promise<string> {
    const secret = await readSecret(this.config.api_secret, this.config.api_secret_file);
    const url = new URL(`${this.config.api_url}gettoken`);
    url.search = goQueryString({ corpsecret: text(secret), corpid: text(this.config.corp_id) });
    const res = await sendRequest(this.client, {
      method: 'GET',
      url: url.href,
      signal: ctx.signal,
    });
    let token: unknown;
    try {
      token = (JSON.parse(res.body) as { access_token?: unknown }).access_token;
    } catch (err) {
      throw new NotifyError((err as Error).message, false);
    }
    if (typeof token !== 'string' || token === '') {
      throw new NotifyError(`invalid APISecret for CorpID: ${this.config.corp_id}`, false);
    }
    return token;
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
