export { ConfigError } from './config-error';
export { configHash } from './config-hash';
export { describeConfig } from './describe-config';
export { loadConfigFile } from './load-config-file';
export { loadHttpConfigFile, parseHttpConfigFile } from './load-http-config-file';
export type { LoadedConfig } from './load-config-file';
export { parseConfig } from './parse-config';
export { serializeConfig } from './serialize-config';
export { routeMatchers } from './route.decoder';
export { inhibitSourceMatchers, inhibitTargetMatchers } from './inhibit-rule.decoder';
export { Secret, SECRET_TOKEN } from './model/secret';
export { SUPPORTED_INTEGRATIONS, UNSUPPORTED_INTEGRATIONS } from './receiver.decoder';
export type { AlertmanagerConfig } from './model/config.model';
export type { GlobalConfig } from './model/global.model';
export type {
  Authorization,
  BasicAuth,
  HttpConfig,
  HttpHeader,
  OAuth2,
  ProxySettings,
  TlsConfig,
  TlsVersion,
} from './model/http-config.model';
export type { InhibitRule } from './model/inhibit-rule.model';
export type { Receiver } from './model/receiver.model';
export type { Route } from './model/route.model';
export type {
  InclusiveRange,
  TimeInterval,
  TimeIntervalSpec,
  TimeOfDayRange,
} from './model/time-interval.model';
export type { TracingConfig } from './model/tracing.model';
export type { EmailConfig, EmailThreading } from './receivers/email.model';
export type { PagerdutyConfig, PagerdutyImage, PagerdutyLink } from './receivers/pagerduty.model';
export type {
  SlackAction,
  SlackConfig,
  SlackConfirmationField,
  SlackField,
} from './receivers/slack.model';
export type { WebhookConfig } from './receivers/webhook.model';
export type { DiscordConfig } from './receivers/discord.model';
export type {
  MattermostAttachmentConfig,
  MattermostConfig,
  MattermostField,
} from './receivers/mattermost.model';
export type { MsteamsConfig, MsteamsV2Config } from './receivers/msteams.model';
export type { RocketchatConfig } from './receivers/rocketchat.model';
export type { IncidentioConfig } from './receivers/incidentio.model';
export type { SnsConfig, SnsSigv4 } from './receivers/sns.model';
export type { JiraConfig, JiraFieldConfig } from './receivers/jira.model';
export type { OpsgenieConfig, OpsgenieResponder } from './receivers/opsgenie.model';
export type { PushoverConfig } from './receivers/pushover.model';
export type { TelegramConfig, TelegramParseMode } from './receivers/telegram.model';
export type { VictoropsConfig } from './receivers/victorops.model';
export type { WebexConfig } from './receivers/webex.model';
export type { WechatConfig } from './receivers/wechat.model';
export { loadPrometheusConfig, parsePrometheusConfig } from './prometheus/load-prometheus-config';
export { PROMETHEUS_GLOBAL_DEFAULTS } from './prometheus/prometheus-config.decoder';
export {
  REMOTE_WRITE_QUEUE_DEFAULTS,
  REMOTE_WRITE_TIMEOUT_MS,
} from './prometheus/remote-write.decoder';
export type {
  AlertingConfig,
  AlertmanagerTargetConfig,
  FileSdConfig,
  PrometheusConfig,
  PrometheusGlobalConfig,
  RawRelabelConfig,
  RemoteWriteConfig,
  RemoteWriteQueueConfig,
  ScrapeConfig,
  StaticConfig,
} from './prometheus/prometheus-config.model';
