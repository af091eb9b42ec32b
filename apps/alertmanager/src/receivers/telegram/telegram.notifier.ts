import { readFile } from 'node:fs/promises';
import type { Alert } from '../../alerts/alert.model';
import type { TelegramConfig } from '../../config';
import { HttpClient } from '../../http-client/http-client';
import { readSecret } from '../../http-client/http-secrets';
import { NotifyError, reasonForStatus, type Notifier } from '../../notify/notifier';
import type { NotifyContext } from '../../notify/notify-context';
import type { TemplateSet } from '../../template';
import { notificationRenderers } from '../templating/notification-text';
import { sendRequest } from '../templating/send-request';
import { sendMessageParams, telegramText } from './telegram-message';

/** The parts of a Bot API answer that decide success. */
interface BotApiAnswer {
  ok?: boolean;
  error_code?: number;
  description?: string;
  result?: unknown;
}

/**
 * Sends a Telegram message through the Bot API (`<api_url>/bot<token>/sendMessage`). As
 * upstream, every failure is retried, whatever the status: its Bot API client reports them
 * all alike.
 */
export class TelegramNotifier implements Notifier {
  private readonly client: HttpClient;

  constructor(
    private readonly config: TelegramConfig,
    private readonly templates: TemplateSet,
    private readonly externalUrl: string,
  ) {
    this.client = new HttpClient(config.http_config);
  }

  async notify(ctx: NotifyContext, alerts: readonly Alert[]): Promise<void> {
    const { text, html } = notificationRenderers(this.templates, this.externalUrl, ctx, alerts);
    const message = telegramText(this.config, text, html);
    const token = await readSecret(this.config.bot_token, this.config.bot_token_file);
    const params = sendMessageParams(this.config, await this.chatId(), message);
    const res = await sendRequest(this.client, {
      method: 'POST',
      url: `${this.config.api_url}/bot${token}/sendMessage`,
      headers: { 'Content-Type': 'application/json' },
      body: `${JSON.stringify(params)}\n`,
      signal: ctx.signal,
    });
    let answer: BotApiAnswer;
    try {
      answer = JSON.parse(res.body) as BotApiAnswer;
    } catch (err) {
      throw new NotifyError(
        `telebot: ${(err as Error).message}`,
        true,
        reasonForStatus(res.status),
      );
    }
    if (answer.ok === true && typeof answer.result === 'object' && answer.result !== null) return;
    const code = answer.error_code ?? res.status;
    throw new NotifyError(
      `telegram: ${answer.description ?? 'unexpected answer'} (${code})`,
      true,
      reasonForStatus(code),
    );
  }

  /** `chat_id`, or the number in `chat_id_file` (read at each send). */
  private async chatId(): Promise<string> {
    const file = this.config.chat_id_file;
    if (!file) return String(this.config.chat_id ?? 0);
    let content: string;
    try {
      content = (await readFile(file, 'utf8')).trim();
    } catch (err) {
      throw new NotifyError(`could not read ${file}: ${(err as Error).message}`, true);
    }
    if (!/^[+-]?\d+$/.test(content))
      throw new NotifyError(`could not parse chat_id from ${file}: invalid syntax`, true);
    return String(BigInt(content));
  }

  /** Closes idle connections. */
  close(): void {
    this.client.close();
  }
}
