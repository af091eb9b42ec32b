import type { AlertmanagerConfig, HttpConfig, Receiver, WebhookConfig } from '../config';
import type { Logger } from '../logging/logger';
import { NotifyError, type Integration, type Notifier } from '../notify/notifier';
import { WebhookNotifier } from './webhook/webhook.notifier';

/** What notifiers are built with. */
export interface ReceiverDeps {
  /** `--web.external-url` resolved, as in payloads and templates. */
  externalUrl: string;
  logger: Logger;
}

/** Builds the notifier of one integration config. */
interface IntegrationKind<C> {
  name: string;
  configs(receiver: Receiver): readonly C[];
  sendResolved(config: C): boolean;
  httpConfig(config: C): HttpConfig | undefined;
  build(config: C, deps: ReceiverDeps): Notifier;
}

/** An integration the config accepts but this release does not deliver to yet. */
class NotImplementedNotifier implements Notifier {
  constructor(private readonly name: string) {}

  async notify(): Promise<void> {
    throw new NotifyError(`the ${this.name} integration is not implemented yet`, false);
  }
}

function notImplemented<C extends { send_resolved: boolean }>(
  name: string,
  configs: (r: Receiver) => readonly C[],
): IntegrationKind<C> {
  return {
    name,
    configs,
    sendResolved: (c) => c.send_resolved,
    httpConfig: () => undefined,
    build: () => new NotImplementedNotifier(name),
  };
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
    build: (c, deps) => new WebhookNotifier(c, deps.externalUrl),
  }),
  kind(notImplemented('email', (r) => r.email_configs)),
  kind(notImplemented('pagerduty', (r) => r.pagerduty_configs)),
  kind(notImplemented('slack', (r) => r.slack_configs)),
];

/** The integration names the registry knows, e.g. to pre-create metric series. */
export const INTEGRATION_NAMES: readonly string[] = KINDS.map((k) => k.name);

function warnUnsupportedHttp(http: HttpConfig, where: string, logger: Logger): void {
  for (const [key, set] of [
    ['oauth2', http.oauth2 !== undefined],
    ['proxy_url', http.proxy_url !== undefined],
    ['proxy_from_environment', http.proxy_from_environment],
  ] as const) {
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
  const receivers = new Map<string, Integration[]>();
  for (const receiver of config.receivers) {
    const integrations: Integration[] = [];
    for (const entry of KINDS) {
      entry.configs(receiver).forEach((conf, index) => {
        const where = `${receiver.name}/${entry.name}[${index}]`;
        const http = entry.httpConfig(conf);
        if (http) warnUnsupportedHttp(http, where, logger);
        const notifier = entry.build(conf, deps);
        if (notifier instanceof NotImplementedNotifier) {
          logger.warn('Integration is not implemented yet; its notifications will fail', {
            integration: where,
          });
        }
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
