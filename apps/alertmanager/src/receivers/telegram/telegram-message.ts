import type { TelegramConfig } from '../../config';
import { truncateRunes, type RenderText } from '../templating/notification-text';

/** Telegram's limit on a message's text. */
const MAX_MESSAGE_RUNES = 4096;

/**
 * What upstream sends instead of an HTML message that is too long, since cutting HTML could
 * leave it malformed (the indentation is upstream's).
 */
const TOO_LONG = `Alertmanager notification could not be sent: message length exceeds Telegram limits.
\t\t\tPlease check the template used for producing the message content.`;

/** The message text: rendered as HTML in `HTML` parse mode, else as text and truncated. */
export function telegramText(config: TelegramConfig, text: RenderText, html: RenderText): string {
  if (config.parse_mode === 'HTML') {
    const message = html(config.message);
    return [...message].length > MAX_MESSAGE_RUNES ? TOO_LONG : message;
  }
  return truncateRunes(text(config.message), MAX_MESSAGE_RUNES).text;
}

/**
 * The Bot API `sendMessage` parameters as upstream's client sends them: every value a string,
 * keys sorted, web page previews always disabled.
 */
export function sendMessageParams(
  config: TelegramConfig,
  chatId: string,
  message: string,
): Record<string, string> {
  const params: Record<string, string> = { chat_id: chatId };
  if (config.disable_notifications) params.disable_notification = 'true';
  params.disable_web_page_preview = 'true';
  if (config.message_thread_id !== 0) params.message_thread_id = String(config.message_thread_id);
  if (config.parse_mode !== '') params.parse_mode = config.parse_mode;
  params.text = message;
  return params;
}
