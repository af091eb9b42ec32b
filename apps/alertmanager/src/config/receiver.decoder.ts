import type { YamlValue } from './decoder/yaml-value';
import type { GlobalConfig } from './model/global.model';
import type { Receiver } from './model/receiver.model';
import { decodeDiscord } from './receivers/discord.decoder';
import { decodeEmail } from './receivers/email.decoder';
import { decodeIncidentio } from './receivers/incidentio.decoder';
import { decodeJira } from './receivers/jira.decoder';
import { decodeMattermost } from './receivers/mattermost.decoder';
import { decodeMsteams, decodeMsteamsV2 } from './receivers/msteams.decoder';
import { decodeRocketchat } from './receivers/rocketchat.decoder';
import { decodeOpsgenie } from './receivers/opsgenie.decoder';
import { decodePagerduty } from './receivers/pagerduty.decoder';
import { decodePushover } from './receivers/pushover.decoder';
import { decodeSlack } from './receivers/slack.decoder';
import { decodeSns } from './receivers/sns.decoder';
import { decodeTelegram } from './receivers/telegram.decoder';
import { decodeVictorops } from './receivers/victorops.decoder';
import { decodeWebex } from './receivers/webex.decoder';
import { decodeWebhook } from './receivers/webhook.decoder';
import { decodeWechat } from './receivers/wechat.decoder';

/** Integrations this server delivers to, by the name used in messages. */
export const SUPPORTED_INTEGRATIONS = [
  'discord',
  'email',
  'incidentio',
  'jira',
  'mattermost',
  'msteams',
  'msteamsv2',
  'opsgenie',
  'pagerduty',
  'pushover',
  'rocketchat',
  'slack',
  'sns',
  'telegram',
  'victorops',
  'webex',
  'webhook',
  'wechat',
] as const;

/** Upstream integrations that load in Alertmanager but that this server does not deliver to. */
export const UNSUPPORTED_INTEGRATIONS = [] as const;

const KEYS = [
  'name',
  'labels',
  'email_configs',
  'webhook_configs',
  'slack_configs',
  'chat_configs',
  'pagerduty_configs',
  'paging_configs',
  'opsgenie_configs',
  'wechat_configs',
  'pushover_configs',
  'victorops_configs',
  'telegram_configs',
  'webex_configs',
  'discord_configs',
  'mattermost_configs',
  'msteams_configs',
  'msteamsv2_configs',
  'rocketchat_configs',
  'incidentio_configs',
  'sns_configs',
  'jira_configs',
  ...UNSUPPORTED_INTEGRATIONS.map((name) => `${name}_configs`),
];

/**
 * Decodes one receiver. `chat_configs` and `paging_configs` are our aliases of `slack_configs`
 * and `pagerduty_configs`. Integrations we do not deliver to are rejected rather than dropped,
 * so that no receiver silently never notifies.
 */
export function decodeReceiver(value: YamlValue, global: GlobalConfig): Receiver {
  const r = value.object(KEYS);
  for (const name of UNSUPPORTED_INTEGRATIONS) {
    const list = r.get(`${name}_configs`);
    if (list.list().length > 0) {
      list.fail(
        `the ${name} integration is not supported; supported: ${SUPPORTED_INTEGRATIONS.join(', ')}`,
      );
    }
  }
  const name = r.string('name');
  if (name === '') value.fail('missing name in receiver');
  const labels = r.get('labels').stringMap();
  if ('name' in labels && labels.name !== name) {
    r.get('labels').fail(
      `receiver label "name" must match receiver name ${JSON.stringify(name)}, got ${JSON.stringify(labels.name)}`,
    );
  }
  const each = <T>(key: string, decode: (item: YamlValue, g: GlobalConfig) => T): T[] =>
    r
      .get(key)
      .list()
      .map((item) => decode(item, global));
  return {
    name,
    labels: { ...labels, name },
    webhook_configs: each('webhook_configs', decodeWebhook),
    slack_configs: each(r.aliased('slack_configs', 'chat_configs'), decodeSlack),
    pagerduty_configs: each(r.aliased('pagerduty_configs', 'paging_configs'), decodePagerduty),
    email_configs: each('email_configs', decodeEmail),
    opsgenie_configs: each('opsgenie_configs', decodeOpsgenie),
    wechat_configs: each('wechat_configs', decodeWechat),
    pushover_configs: each('pushover_configs', decodePushover),
    victorops_configs: each('victorops_configs', decodeVictorops),
    telegram_configs: each('telegram_configs', decodeTelegram),
    webex_configs: each('webex_configs', decodeWebex),
    discord_configs: each('discord_configs', decodeDiscord),
    mattermost_configs: each('mattermost_configs', decodeMattermost),
    msteams_configs: each('msteams_configs', decodeMsteams),
    msteamsv2_configs: each('msteamsv2_configs', decodeMsteamsV2),
    rocketchat_configs: each('rocketchat_configs', decodeRocketchat),
    incidentio_configs: each('incidentio_configs', decodeIncidentio),
    sns_configs: each('sns_configs', decodeSns),
    jira_configs: each('jira_configs', decodeJira),
  };
}
