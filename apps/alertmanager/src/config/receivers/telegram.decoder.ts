import { atMostOne, readFilePath, readSecret } from '../decoder/decode-helpers';
import { readUrl } from '../decoder/url';
import type { YamlValue } from '../decoder/yaml-value';
import type { GlobalConfig } from '../model/global.model';
import { HTTP_NOTIFIER_KEYS, inheritHttpConfig } from './receiver-context';
import type { TelegramConfig, TelegramParseMode } from './telegram.model';

const KEYS = [
  ...HTTP_NOTIFIER_KEYS,
  'api_url',
  'bot_token',
  'bot_token_file',
  'chat_id',
  'chat_id_file',
  'message_thread_id',
  'message',
  'disable_notifications',
  'parse_mode',
];

const PARSE_MODES: readonly string[] = ['', 'Markdown', 'MarkdownV2', 'HTML'];

/**
 * Decodes a `telegram_configs` entry. Without a token of its own it takes both global token
 * keys (`telegram_bot_token(_file)`); having none is an error.
 */
export function decodeTelegram(value: YamlValue, global: GlobalConfig): TelegramConfig {
  if (value.isNull) value.fail('missing telegram config');
  const r = value.object(KEYS);
  atMostOne(r, 'bot_token');
  const chatId = integer(r.get('chat_id'));
  const chatIdFile = readFilePath(r, 'chat_id_file');
  if (!chatId && !chatIdFile) value.fail('missing chat_id or chat_id_file on telegram_config');
  if (chatId && chatIdFile) value.fail('at most one of chat_id & chat_id_file must be configured');
  const parseMode = r.string('parse_mode', 'HTML');
  if (!PARSE_MODES.includes(parseMode)) {
    value.fail(
      'unknown parse_mode on telegram_config, must be Markdown, MarkdownV2, HTML or empty string',
    );
  }
  let botToken = readSecret(r, 'bot_token');
  let botTokenFile = readFilePath(r, 'bot_token_file');
  if (!botToken && !botTokenFile) {
    if (!global.telegram_bot_token && !global.telegram_bot_token_file)
      value.fail('missing bot_token or bot_token_file on telegram_config');
    botToken = global.telegram_bot_token;
    botTokenFile = global.telegram_bot_token_file;
  }
  return {
    send_resolved: r.bool('send_resolved', true),
    http_config: inheritHttpConfig(r, global),
    api_url: r.has('api_url') ? readUrl(r.get('api_url')) : global.telegram_api_url,
    bot_token: botToken,
    bot_token_file: botTokenFile,
    chat_id: chatId || undefined,
    chat_id_file: chatIdFile,
    message_thread_id: integer(r.get('message_thread_id')),
    message: r.string('message', '{{ template "telegram.default.message" . }}'),
    disable_notifications: r.bool('disable_notifications'),
    parse_mode: parseMode as TelegramParseMode,
  };
}

/** A whole number, negative allowed (group chat IDs are negative). */
function integer(value: YamlValue): number {
  const n = value.number();
  if (!Number.isSafeInteger(n)) value.fail(`expected an integer, got ${value.describe()}`);
  return n;
}
