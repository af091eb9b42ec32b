import { join } from 'node:path';
import { loadConfigFile } from '../load-config-file';
import { parseConfig } from '../parse-config';
import type { Receiver } from '../model/receiver.model';

const FILE = join(__dirname, '..', 'valid-testdata', 'more-integrations.yml');
const SECRETS = join(__dirname, '..', 'valid-testdata', 'secrets');

let receiver: Receiver;
beforeAll(async () => {
  receiver = (await loadConfigFile(FILE)).config.receivers[0];
});

/** The defaults a minimal entry gets: upstream's, with the globals filled in. */
describe('defaults and globals of the newer integrations', () => {
  it.each<[string, () => unknown, unknown]>([
    ['opsgenie send_resolved', () => receiver.opsgenie_configs[0].send_resolved, true],
    [
      'opsgenie global URL, slash added',
      () => receiver.opsgenie_configs[0].api_url,
      'https://opsgenie.example/base/',
    ],
    [
      'opsgenie own URL, slash added',
      () => receiver.opsgenie_configs[1].api_url,
      'https://api.eu.opsgenie.com/',
    ],
    ['opsgenie global key', () => receiver.opsgenie_configs[0].api_key?.reveal(), 'og-global'],
    [
      'opsgenie own key file replaces the global key',
      () => [
        receiver.opsgenie_configs[1].api_key?.reveal(),
        receiver.opsgenie_configs[1].api_key_file,
      ],
      [undefined, join(SECRETS, 'opsgenie')],
    ],
    [
      'opsgenie message',
      () => receiver.opsgenie_configs[0].message,
      '{{ template "opsgenie.default.message" . }}',
    ],
    [
      'opsgenie description',
      () => receiver.opsgenie_configs[0].description,
      '{{ template "opsgenie.default.description" . }}',
    ],
    [
      'opsgenie source',
      () => receiver.opsgenie_configs[0].source,
      '{{ template "opsgenie.default.source" . }}',
    ],
    [
      'victorops global URL',
      () => receiver.victorops_configs[0].api_url,
      'https://alert.victorops.com/integrations/generic/20131114/alert/',
    ],
    [
      'victorops own URL, slash added',
      () => receiver.victorops_configs[1].api_url,
      'https://vo.example/alert/',
    ],
    [
      'victorops global key file',
      () => receiver.victorops_configs[0].api_key_file,
      join(SECRETS, 'victorops'),
    ],
    [
      'victorops message type default',
      () => receiver.victorops_configs[1].message_type,
      'CRITICAL',
    ],
    [
      'victorops state message',
      () => receiver.victorops_configs[0].state_message,
      '{{ template "victorops.default.state_message" . }}',
    ],
    ['victorops send_resolved', () => receiver.victorops_configs[0].send_resolved, true],
    [
      'pushover priority',
      () => receiver.pushover_configs[0].priority,
      '{{ if eq .Status "firing" }}2{{ else }}0{{ end }}',
    ],
    [
      'pushover retry, expire, ttl defaults',
      () => [
        receiver.pushover_configs[0].retry,
        receiver.pushover_configs[0].expire,
        receiver.pushover_configs[0].ttl,
      ],
      [60_000, 3_600_000, 0],
    ],
    [
      'pushover Go durations',
      () => [
        receiver.pushover_configs[1].retry,
        receiver.pushover_configs[1].expire,
        receiver.pushover_configs[1].ttl,
      ],
      [90_000, 7_200_000, 5_400_000],
    ],
    [
      'pushover title',
      () => receiver.pushover_configs[0].title,
      '{{ template "pushover.default.title" . }}',
    ],
    [
      'telegram global URL and token',
      () => [
        receiver.telegram_configs[0].api_url,
        receiver.telegram_configs[0].bot_token?.reveal(),
      ],
      ['https://api.telegram.org', 'tg-global'],
    ],
    ['telegram parse mode default', () => receiver.telegram_configs[0].parse_mode, 'HTML'],
    ['telegram parse mode empty', () => receiver.telegram_configs[1].parse_mode, ''],
    ['telegram negative chat ID', () => receiver.telegram_configs[0].chat_id, -1001234],
    [
      'telegram own token file only',
      () => [receiver.telegram_configs[1].bot_token, receiver.telegram_configs[1].bot_token_file],
      [undefined, join(SECRETS, 'telegram')],
    ],
    [
      'discord title and message',
      () => [
        receiver.discord_configs[0].title,
        receiver.discord_configs[0].message,
        receiver.discord_configs[0].content,
      ],
      [
        '{{ template "discord.default.title" . }}',
        '{{ template "discord.default.message" . }}',
        '',
      ],
    ],
    [
      'webex global URL',
      () => receiver.webex_configs[0].api_url,
      'https://webexapis.com/v1/messages',
    ],
    [
      'webex message',
      () => receiver.webex_configs[0].message,
      '{{ template "webex.default.message" . }}',
    ],
    [
      'wechat globals',
      () => [
        receiver.wechat_configs[0].api_secret?.reveal(),
        receiver.wechat_configs[0].corp_id,
        receiver.wechat_configs[0].api_url,
      ],
      ['wx-global', 'corp-global', 'https://qyapi.weixin.qq.com/cgi-bin/'],
    ],
    [
      'wechat own URL, slash added',
      () => receiver.wechat_configs[1].api_url,
      'https://wechat.example/cgi-bin/',
    ],
    [
      'wechat defaults',
      () => [
        receiver.wechat_configs[0].send_resolved,
        receiver.wechat_configs[0].message_type,
        receiver.wechat_configs[0].to_party,
      ],
      [false, 'text', '{{ template "wechat.default.to_party" . }}'],
    ],
  ])('%s', (_name, read, expected) => {
    expect(read()).toEqual(expected);
  });

  it('serialises every secret of them as <secret>', async () => {
    const { serializeConfig } = await import('../serialize-config');
    const config = (await loadConfigFile(FILE)).config;
    const text = serializeConfig(config);
    for (const secret of [
      'og-global',
      'tg-global',
      'wx-global',
      'vo-own',
      'wx-token',
      'discord.com/api',
    ])
      expect(text).not.toContain(secret);
    expect(text).toContain('retry: 1m30s');
    expect(parseConfig(text, FILE).receivers[0].pushover_configs[1].ttl).toBe(5_400_000);
  });
});
