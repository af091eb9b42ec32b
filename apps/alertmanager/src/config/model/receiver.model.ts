import type { DiscordConfig } from '../receivers/discord.model';
import type { IncidentioConfig } from '../receivers/incidentio.model';
import type { JiraConfig } from '../receivers/jira.model';
import type { MattermostConfig } from '../receivers/mattermost.model';
import type { MsteamsConfig, MsteamsV2Config } from '../receivers/msteams.model';
import type { RocketchatConfig } from '../receivers/rocketchat.model';
import type { SnsConfig } from '../receivers/sns.model';
import type { EmailConfig } from '../receivers/email.model';
import type { OpsgenieConfig } from '../receivers/opsgenie.model';
import type { PagerdutyConfig } from '../receivers/pagerduty.model';
import type { PushoverConfig } from '../receivers/pushover.model';
import type { SlackConfig } from '../receivers/slack.model';
import type { TelegramConfig } from '../receivers/telegram.model';
import type { VictoropsConfig } from '../receivers/victorops.model';
import type { WebexConfig } from '../receivers/webex.model';
import type { WebhookConfig } from '../receivers/webhook.model';
import type { WechatConfig } from '../receivers/wechat.model';

/**
 * A named receiver and its integrations. A receiver without integrations is valid: alerts
 * routed to it are dropped on purpose.
 */
export interface Receiver {
  name: string;
  /** Receiver labels (0.33+); `name` is always set to the receiver's name. */
  labels: Record<string, string>;
  webhook_configs: WebhookConfig[];
  slack_configs: SlackConfig[];
  pagerduty_configs: PagerdutyConfig[];
  email_configs: EmailConfig[];
  opsgenie_configs: OpsgenieConfig[];
  wechat_configs: WechatConfig[];
  pushover_configs: PushoverConfig[];
  victorops_configs: VictoropsConfig[];
  telegram_configs: TelegramConfig[];
  webex_configs: WebexConfig[];
  discord_configs: DiscordConfig[];
  mattermost_configs: MattermostConfig[];
  msteams_configs: MsteamsConfig[];
  msteamsv2_configs: MsteamsV2Config[];
  rocketchat_configs: RocketchatConfig[];
  incidentio_configs: IncidentioConfig[];
  sns_configs: SnsConfig[];
  jira_configs: JiraConfig[];
}
