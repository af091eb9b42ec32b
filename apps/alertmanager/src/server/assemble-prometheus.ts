import type { Registry } from 'prom-client';
import type { AlertIntake } from '../alerts/alert-intake';
import { loadPrometheusConfig, type PrometheusConfig } from '../config';
import type { Logger } from '../logging/logger';
import type { ConfigSubscriber } from '../reload/config-subscriber';
import { RemoteDatasource, RuleManager, RuleMetrics, type RuleQueries } from '../rules';
import {
  decodeJobRelabeling,
  decodeRelabelConfigs,
  readTargetFile,
  relabeler,
  SCRAPE_ACCEPT_HEADER,
  ScrapeManager,
  scrapedSamples,
} from '../scrape';
import {
  AlertSender,
  AlertSenderMetrics,
  alertmanagerEndpoints,
  type AlertmanagerEndpoint,
  type PostableAlert,
} from '../alert-sender';
import type { Labels } from '../tsdb/labels';
import type { PostedAlert } from '../alerts/alert-ingest';
import { formatRfc3339Nano } from '../time/go-date-time';
import { buildInfo } from '../build/build-info';
import { glob } from '../template';
import type { Clock } from '../time/clock';
import type { Scheduler } from '../time/scheduler';
import type { MetricStorage } from '../tsdb';
import { CircularExemplarStore, ExemplarMetrics } from '../tsdb/exemplars';
import { DEFAULT_MAX_EXEMPLARS } from '../config/prometheus/prometheus-config.decoder';
import { RemoteWriteMetrics, RemoteWriters } from '../remote-write';
import { ruleAlertsToPosted } from './rule-alerts-to-intake';
import { SERVER_DEFAULTS, type ServerOptions } from './server-options';

/** What the Prometheus side (rules, scraping) is assembled from. */
export interface PrometheusInputs {
  options: ServerOptions;
  registry: Registry;
  clock: Clock;
  scheduler: Scheduler;
  logger: Logger;
  metricStorage: MetricStorage;
  alertIntake: AlertIntake;
  externalUrl: () => string;
  /** Where rules read the store: the rules' query thread. */
  ruleQueries: RuleQueries;
}

/** The assembled Prometheus side: what the API reads, and the reload hook. */
export interface AssembledPrometheus {
  ruleManager: RuleManager;
  scrapeManager: ScrapeManager;
  /** The scraped exemplars, sized by `storage.exemplars.max_exemplars` at each reload. */
  exemplars: CircularExemplarStore;
  /** Reloads `--rules.config.file` with every `/-/reload` (absent: nothing to do). */
  subscriber: ConfigSubscriber;
  /** The configuration last put into force (`/api/v1/status/config`); none without a file. */
  config(): PrometheusConfig | undefined;
  /** Reads and validates `--rules.config.file` once, so a bad file stops the start. */
  check(): Promise<void>;
  stop(): void;
}

/**
 * Wires what Prometheus would do beside Alertmanager: the scrape manager appending the targets of
 * `scrape_configs` to the metric store, the rule manager evaluating on the rules' query thread and
 * writing back to it, alerts handed to the alert intake in-process (external labels added, as Prometheus's
 * notifier does), and every appended sample sent on to the `remote_write` endpoints. Everything
 * comes from `--rules.config.file`, re-read with every reload of the server's configuration, all
 * or nothing.
 */
export function assemblePrometheus(inputs: PrometheusInputs): AssembledPrometheus {
  const { options, logger, metricStorage } = inputs;
  const rulesLogger = logger.with({ component: 'rule manager' });
  /** What the running configuration says about sending alerts; replaced by each reload. */
  let sending: {
    externalLabels: Readonly<Record<string, string>>;
    relabel: (labels: Labels) => Labels | undefined;
    sender: AlertSender | undefined;
  } = { externalLabels: {}, relabel: (labels) => labels, sender: undefined };
  const senderMetrics = new AlertSenderMetrics(inputs.registry);
  /** The next re-reading of the Alertmanagers' `file_sd_configs`, when there are any. */
  let rediscovery: ReturnType<Scheduler['set']> | undefined;
  const userAgent = `redisx-alertmanager/${buildInfo().version}`;
  const remoteWriters = new RemoteWriters({
    source: metricStorage,
    metrics: new RemoteWriteMetrics(inputs.registry),
    clock: inputs.clock,
    scheduler: inputs.scheduler,
    logger: logger.with({ component: 'remote' }),
    userAgent,
    storageDir: options.storagePath,
  });
  // Exemplars are always kept (Prometheus keeps them with `--enable-feature=exemplar-storage`).
  const exemplars = new CircularExemplarStore(
    DEFAULT_MAX_EXEMPLARS,
    new ExemplarMetrics(inputs.registry),
  );
  const ruleManager = new RuleManager({
    queries: inputs.ruleQueries,
    exemplars,
    traceUrl: options.traceUrl,
    storage: metricStorage,
    clock: inputs.clock,
    scheduler: inputs.scheduler,
    metrics: new RuleMetrics(inputs.registry),
    logger: rulesLogger,
    notify: (alerts) => {
      const posted = ruleAlertsToPosted(alerts, sending.externalLabels, sending.relabel);
      inputs.alertIntake.post(posted).then(
        (errors) => {
          for (const err of errors) rulesLogger.warn('alert refused', { err });
        },
        (error: Error) => rulesLogger.error('sending alerts failed', { err: error.message }),
      );
      void sending.sender?.send(posted.map(toPostable));
    },
    resendDelayMs: options.rulesResendDelay ?? SERVER_DEFAULTS.rulesResendDelay,
    remote: options.rulesDatasourceUrl
      ? new RemoteDatasource(
          options.rulesDatasourceUrl,
          options.rulesDatasourceTimeout ?? SERVER_DEFAULTS.rulesDatasourceTimeout,
        )
      : undefined,
    restore: {
      outageToleranceMs: options.rulesForOutageTolerance ?? SERVER_DEFAULTS.rulesForOutageTolerance,
      forGracePeriodMs: options.rulesForGracePeriod ?? SERVER_DEFAULTS.rulesForGracePeriod,
    },
  });
  const scrapeManager = new ScrapeManager(
    {
      clock: inputs.clock,
      scheduler: inputs.scheduler,
      logger: logger.with({ component: 'scrape manager' }),
      storage: metricStorage,
      parse: scrapedSamples,
      accept: SCRAPE_ACCEPT_HEADER,
      userAgent,
      glob,
      exemplars,
    },
    decodeJobRelabeling,
    logger.with({ component: 'scrape manager' }),
  );
  const file = options.rulesConfigFile;
  let committed: PrometheusConfig | undefined;
  const load = async (): Promise<PrometheusConfig | undefined> =>
    file ? await loadPrometheusConfig(file) : undefined;
  const prepare = async (externalUrl: string) => {
    const config = await load();
    if (config === undefined) return () => undefined;
    const commitRemoteWrite = remoteWriters.prepare(
      config.remoteWrite,
      config.global.externalLabels,
    );
    const commitScrape = scrapeManager.prepare(config.scrapeConfigs);
    const alertRelabel = relabeler(decodeRelabelConfigs(config.alerting.alertRelabelConfigs));
    const relabelers = config.alerting.alertmanagers.map((am) =>
      relabeler(decodeRelabelConfigs(am.relabelConfigs)),
    );
    const discover = async (): Promise<AlertmanagerEndpoint[]> => {
      const endpoints: AlertmanagerEndpoint[] = [];
      for (const [i, am] of config.alerting.alertmanagers.entries()) {
        const fileTargets: Labels[] = [];
        for (const sd of am.fileSdConfigs) {
          for (const pattern of sd.files) {
            for (const file of await glob(pattern)) {
              try {
                for (const group of await readTargetFile(file)) fileTargets.push(...group.targets);
              } catch (error) {
                // As upstream's discovery: a file that does not read gives no Alertmanagers.
                logger.error('Error reading file', { err: (error as Error).message });
              }
            }
          }
        }
        endpoints.push(...alertmanagerEndpoints(am, relabelers[i], fileTargets));
      }
      return endpoints;
    };
    const endpoints = await discover();
    const refreshMs = Math.min(
      ...config.alerting.alertmanagers.flatMap((am) =>
        am.fileSdConfigs.map((sd) => sd.refreshIntervalMs),
      ),
    );
    const commitRules = await ruleManager.prepare({
      ruleFiles: config.ruleFiles,
      evaluationIntervalMs: config.global.evaluationIntervalMs,
      externalLabels: config.global.externalLabels,
      externalUrl,
    });
    return async () => {
      sending.sender?.close();
      if (rediscovery) inputs.scheduler.clear(rediscovery);
      rediscovery = undefined;
      const sender =
        config.alerting.alertmanagers.length > 0
          ? new AlertSender(
              endpoints,
              senderMetrics,
              logger.with({ component: 'notifier' }),
              userAgent,
            )
          : undefined;
      sending = { externalLabels: config.global.externalLabels, relabel: alertRelabel, sender };
      committed = config;
      // As upstream: a new size keeps the newest exemplars that fit.
      exemplars.resize(config.storage?.exemplars.maxExemplars ?? DEFAULT_MAX_EXEMPLARS);
      // Alertmanagers of `file_sd_configs` are found again every `refresh_interval`.
      const refresh = () => {
        rediscovery = inputs.scheduler.set(inputs.clock.now() + refreshMs, () => {
          void discover().then((found) => {
            if (sending.sender !== sender) return;
            sender?.setEndpoints(found);
            refresh();
          });
        });
      };
      if (Number.isFinite(refreshMs)) refresh();
      // Before scraping and rules start appending under the new configuration.
      commitRemoteWrite();
      await commitScrape();
      await commitRules();
    };
  };
  return {
    ruleManager,
    scrapeManager,
    exemplars,
    subscriber: { prepare: () => prepare(inputs.externalUrl()) },
    config: () => committed,
    check: async () => void (await prepare('')),
    stop: () => {
      if (rediscovery) inputs.scheduler.clear(rediscovery);
      sending.sender?.close();
      scrapeManager.stop();
      ruleManager.stop();
      remoteWriters.stop();
    },
  };
}

/** An alert as posted to an external Alertmanager's API. */
function toPostable(alert: PostedAlert): PostableAlert {
  return {
    labels: { ...alert.labels },
    annotations: { ...alert.annotations },
    startsAt: formatRfc3339Nano(alert.startsAt),
    endsAt: formatRfc3339Nano(alert.endsAt),
    generatorURL: alert.generatorURL,
  };
}
