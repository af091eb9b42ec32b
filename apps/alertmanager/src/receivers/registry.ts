import type {
  AlertmanagerConfig,
  DiscordConfig,
  MattermostConfig,
  MsteamsConfig,
  MsteamsV2Config,
  RocketchatConfig,
  IncidentioConfig,
  SnsConfig,
  JiraConfig,
  EmailConfig,
  HttpConfig,
  OpsgenieConfig,
  PagerdutyConfig,
  PushoverConfig,
  Receiver,
  SlackConfig,
  TelegramConfig,
  VictoropsConfig,
  WebexConfig,
  WebhookConfig,
  WechatConfig,
} from '../config';
import type { Logger } from '../logging/logger';
import type { Integration, Notifier } from '../notify/notifier';
import { defaultTemplates, type TemplateSet } from '../template';
import { DiscordNotifier } from './discord/discord.notifier';
import { MattermostNotifier } from './mattermost/mattermost.notifier';
import { MsteamsNotifier, MsteamsV2Notifier } from './msteams/msteams.notifier';
import { RocketchatNotifier } from './rocketchat/rocketchat.notifier';
import { IncidentioNotifier } from './incidentio/incidentio.notifier';
import { SnsNotifier } from './sns/sns.notifier';
import { JiraNotifier } from './jira/jira.notifier';
import { EmailNotifier } from './email/email.notifier';
import { OpsgenieNotifier } from './opsgenie/opsgenie.notifier';
import { PagerdutyNotifier } from './pagerduty/pagerduty.notifier';
import { PushoverNotifier } from './pushover/pushover.notifier';
import { SlackNotifier } from './slack/slack.notifier';
import { TelegramNotifier } from './telegram/telegram.notifier';
import { VictoropsNotifier } from './victorops/victorops.notifier';
import { WebexNotifier } from './webex/webex.notifier';
import { WebhookNotifier } from './webhook/webhook.notifier';
import { WechatNotifier } from './wechat/wechat.notifier';

/** What notifiers are built with. */
export interface ReceiverDeps {
  /** `--web.external-url` resolved, as in payloads and templates. */
  externalUrl: string;
  logger: Logger;
  /** The configuration's templates (defaults, then `templates:` files); defaults if absent. */
  templates?: TemplateSet;
}

/** What each notifier gets: the deps with the templates resolved. */
type KindDeps = ReceiverDeps & { templates: TemplateSet };

/** Builds the notifier of one integration config. */
interface IntegrationKind<C> {
  name: string;
  configs(receiver: Receiver): readonly C[];
  sendResolved(config: C): boolean;
  httpConfig(config: C): HttpConfig | undefined;
  build(config: C, deps: KindDeps): Notifier;
}

/** Erases a kind's config type so that kinds fit in one table; each kind only sees its own. */
function kind<C>(k: IntegrationKind<C>): IntegrationKind<unknown> {
  return k as IntegrationKind<unknown>;
}

/**
 * Every integration, in upstream's order within a receiver. This table is the only place that
 * knows integration names: a new integration is a folder under `receivers/` and a row here.
 */
const KINDS: readonly IntegrationKind<unknown>[] = [
  kind<WebhookConfig>({
    name: 'webhook',
    configs: (r) => r.webhook_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new WebhookNotifier(c, deps.externalUrl, undefined, deps.templates),
  }),
  kind<EmailConfig>({
    name: 'email',
    configs: (r) => r.email_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: () => undefined,
    build: (c, deps) => new EmailNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<PagerdutyConfig>({
    name: 'pagerduty',
    configs: (r) => r.pagerduty_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new PagerdutyNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<OpsgenieConfig>({
    name: 'opsgenie',
    configs: (r) => r.opsgenie_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new OpsgenieNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<WechatConfig>({
    name: 'wechat',
    configs: (r) => r.wechat_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new WechatNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<SlackConfig>({
    name: 'slack',
    configs: (r) => r.slack_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new SlackNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<VictoropsConfig>({
    name: 'victorops',
    configs: (r) => r.victorops_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new VictoropsNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<PushoverConfig>({
    name: 'pushover',
    configs: (r) => r.pushover_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new PushoverNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<TelegramConfig>({
    name: 'telegram',
    configs: (r) => r.telegram_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new TelegramNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<DiscordConfig>({
    name: 'discord',
    configs: (r) => r.discord_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new DiscordNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<MattermostConfig>({
    name: 'mattermost',
    configs: (r) => r.mattermost_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new MattermostNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<MsteamsConfig>({
    name: 'msteams',
    configs: (r) => r.msteams_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new MsteamsNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<MsteamsV2Config>({
    name: 'msteamsv2',
    configs: (r) => r.msteamsv2_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new MsteamsV2Notifier(c, deps.templates, deps.externalUrl),
  }),
  kind<RocketchatConfig>({
    name: 'rocketchat',
    configs: (r) => r.rocketchat_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new RocketchatNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<IncidentioConfig>({
    name: 'incidentio',
    configs: (r) => r.incidentio_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new IncidentioNotifier(c, deps.externalUrl),
  }),
  kind<SnsConfig>({
    name: 'sns',
    configs: (r) => r.sns_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new SnsNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<JiraConfig>({
    name: 'jira',
    configs: (r) => r.jira_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new JiraNotifier(c, deps.templates, deps.externalUrl),
  }),
  kind<WebexConfig>({
    name: 'webex',
    configs: (r) => r.webex_configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: (c) => c.http_config,
    build: (c, deps) => new WebexNotifier(c, deps.templates, deps.externalUrl),
  }),
];

/** The integration names the registry knows, e.g. to pre-create metric series. */
export const INTEGRATION_NAMES: readonly string[] = KINDS.map((k) => k.name);

function warnUnsupportedHttp(http: HttpConfig, where: string, logger: Logger): void {
  for (const [key, set] of [['a SOCKS proxy_url', /^socks/i.test(http.proxy_url ?? '')]] as const) {
    if (set)
      logger.warn(`http_config ${key} is not supported; requests are sent without it`, {
        integration: where,
      });
  }
}

/** Builds the integrations of every receiver, by receiver name. */
export function buildReceivers(
  config: Pick<AlertmanagerConfig, 'receivers'>,
  deps: ReceiverDeps,
): Map<string, Integration[]> {
  const logger = deps.logger.with({ component: 'receivers' });
  const kindDeps: KindDeps = { ...deps, templates: deps.templates ?? defaultTemplates() };
  const receivers = new Map<string, Integration[]>();
  for (const receiver of config.receivers) {
    const integrations: Integration[] = [];
    for (const entry of KINDS) {
      entry.configs(receiver).forEach((conf, index) => {
        const where = `${receiver.name}/${entry.name}[${index}]`;
        const http = entry.httpConfig(conf);
        if (http) warnUnsupportedHttp(http, where, logger);
        const notifier = entry.build(conf, kindDeps);
        integrations.push({
          name: entry.name,
          index,
          sendResolved: entry.sendResolved(conf),
          notifier,
        });
      });
    }
    receivers.set(receiver.name, integrations);
  }
  return receivers;
}

/** Releases the integrations' connections; call after a reload replaced them, and on shutdown. */
export function closeReceivers(receivers: ReadonlyMap<string, readonly Integration[]>): void {
  for (const integrations of receivers.values()) {
    for (const { notifier } of integrations) notifier.close?.();
  }
}
