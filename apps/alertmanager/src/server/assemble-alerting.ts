import type { Registry } from 'prom-client';
import { openAlertStore } from '../alerts';
import { AlertsMetrics } from '../alerts/alerts-metrics';
import { AlertingGraph } from '../alerting/alerting-graph';
import { Maintenance } from '../alerting/maintenance';
import type { QueryRunner } from '../api';
import { AlertsApi, NotificationsApi, RoutesApi, SilencesApi, StatusApi } from '../api/v2';
import { DispatcherMetrics } from '../dispatch';
import { realScheduler } from '../time/scheduler';
import { INHIBITOR_GC_INTERVAL } from '../inhibit';
import type { Logger } from '../logging/logger';
import {
  DEFAULT_HISTORY_RECORDS,
  NflogMetrics,
  NotificationHistory,
  NotificationLog,
  NotifyMetrics,
} from '../notify';
import type { ConfigReloader } from '../reload/config-reloader';
import { openSilenceStore, registerSilenceMetrics } from '../silences';
import {
  ClusterPeers,
  RedisClaims,
  RedisDeliveries,
  RedisStreamLink,
  shareNotificationLog,
  shareSilences,
} from '../cluster';

import type { Clock } from '../time/clock';
import type { ServerOptions } from './server-options';
import { SERVER_DEFAULTS } from './server-options';
import { AlertIntake } from '../alerts/alert-intake';
import { oldestSentSegment } from '../remote-write';
import { MetricStorage } from '../tsdb';
import type { RuleManager } from '../rules';
import type { ScrapeManager } from '../scrape';
import type { CircularExemplarStore } from '../tsdb/exemplars';
import { assemblePrometheus } from './assemble-prometheus';
import { prometheusStatusApi } from './prometheus-status';
import type { PrometheusStatusApi } from '../api';
import type { ServerReadiness } from '../api/server-readiness';
import { assembleQueryThreads, type AssembledQueryThreads } from './assemble-query-threads';
import { ThreadStarts } from '../query-threads';

/** The Redis keys the replicas of a cluster share start with this. */
const CLUSTER_KEY_PREFIX = 'redisx:alertmanager';

const clusterLogger = (logger: Logger) => logger.with({ component: 'cluster' });

/** A replica's address among its peers: the host and port of its external URL. */
const hostOf = (url: string) => (url === '' ? '' : new URL(url).host);

/** What the alerting parts are assembled from. */
export interface AlertingInputs {
  options: ServerOptions;
  registry: Registry;
  reloader: ConfigReloader;
  clock: Clock;
  logger: Logger;
  externalUrl: () => string;
}

/** The assembled alerting parts: what the API serves from, and their lifecycle. */
export interface AssembledAlerting {
  apiParts: {
    alertIntake: AlertIntake;
    alertsApi: AlertsApi;
    statusApi: StatusApi;
    silencesApi: SilencesApi;
    notificationsApi: NotificationsApi;
    routesApi: RoutesApi;
    ruleManager: RuleManager;
    queries: QueryRunner;
    scrapeManager: ScrapeManager;
    exemplars: CircularExemplarStore;
    prometheusStatus: PrometheusStatusApi;
    /**
     * `/-/ready` waits for the warm query threads (the API's, and the rules' when rules load): until
     * then, a first query shares the cores with them. It does not wait for the rings of recent
     * samples to be filled after the start, as Prometheus is ready once its head is loaded: until
     * they are, reads of recent windows decode the open chunks (at 100,000 series the fill takes
     * about a second, in slices).
     */
    readiness: ServerReadiness;
  };
  /** Builds the graph for the running config and starts notifying and maintenance. */
  start(): Promise<void>;
  /** Stops notifying, then writes the stores kept on disk. */
  close(): Promise<void>;
  /** The metric store under `--storage.path`, which rule evaluation and scraping append to. */
  metricStorage: MetricStorage;
}

/**
 * Opens the stores kept under `--storage.path` and wires the alert store, the silences (the
 * pipeline's silencer and the API's), the notification log, the metric store (samples kept for
 * `--storage.tsdb.retention.time`/`.size`, checkpointed at maintenance), the alerting graph
 * (rebuilt on every reload),
 * periodic maintenance (with silence GC and snapshots) and the API's logic together.
 */
export async function assembleAlerting(inputs: AlertingInputs): Promise<AssembledAlerting> {
  const { options, logger, clock } = inputs;
  // The query thread a start keeps warm boots and loads its code while the stores load.
  const starts = new ThreadStarts(1);
  let queries: AssembledQueryThreads | undefined;
  // The metric store loads while the others do (it checks its chunk database in another process
  // and reads in slices); a failure of either still waits for the other, so nothing is left open.
  const [metrics, others] = await Promise.allSettled([
    MetricStorage.open({
      dir: options.storagePath,
      retentionMs: options.tsdbRetentionTime ?? options.dataRetention,
      retentionBytes: options.tsdbRetentionSize ?? 0,
      syncIntervalMs: 200,
      keepLogFrom: oldestSentSegment(options.storagePath),
      logger: logger.with({ component: 'metric store' }),
      registry: inputs.registry,
      // The warm thread copies the index while the checkpoint and the log replay.
      onReadable: (store) => {
        queries = assembleQueryThreads(options, store, clock, logger, starts);
        queries.startThreads();
      },
    }),
    openAlertingStores(inputs),
  ]);
  if (metrics.status === 'rejected' || others.status === 'rejected') {
    await Promise.all([queries?.close(), starts.close()]);
  }
  if (metrics.status === 'rejected') throw metrics.reason;
  if (others.status === 'rejected') {
    await metrics.value.close();
    throw others.reason;
  }
  if (queries === undefined) throw new Error('the metric store opened without becoming readable');
  return assembleOpened(inputs, {
    ...others.value,
    metricStorage: metrics.value,
    starts,
    queries,
  });
}

/** The stores of the alerting side, opened one after another. */
async function openAlertingStores(inputs: AlertingInputs) {
  const { options, registry, clock, logger } = inputs;
  const store = await openAlertStore({ dir: options.storagePath, clock, logger });
  const nflog = await NotificationLog.open({
    storagePath: options.storagePath,
    retention: options.dataRetention,
    now: clock.now(),
    logger,
    metrics: new NflogMetrics(registry),
  });
  const history = await NotificationHistory.open({
    storagePath: options.storagePath,
    maxRecords: DEFAULT_HISTORY_RECORDS,
    retention: options.dataRetention,
    now: clock.now(),
    logger,
  });
  const silences = await openSilenceStore({
    dir: options.storagePath,
    retentionMs: options.dataRetention,
    limits: { maxSilences: options.maxSilences, maxSilenceSizeBytes: options.maxSilenceSizeBytes },
    logger,
  });
  return { store, nflog, history, silences };
}

type OpenedStores = Awaited<ReturnType<typeof openAlertingStores>> & {
  metricStorage: MetricStorage;
  /** Query threads started while the stores loaded. */
  starts: ThreadStarts;
  /** The query pools, made as the metric store became readable. */
  queries: AssembledQueryThreads;
};

/** Continues {@link assembleAlerting} once every store is open. */
async function assembleOpened(
  inputs: AlertingInputs,
  opened: OpenedStores,
): Promise<AssembledAlerting> {
  const { options, registry, reloader, clock, logger } = inputs;
  const { store, nflog, history, silences, metricStorage, starts, queries } = opened;
  const scheduler = realScheduler(clock);
  // Replicas share their silences and notification log through Redis, claim each notification
  // before sending it, and record each delivery there before it counts as done, reading the
  // others' before deciding (each still takes alerts directly).
  const cluster = options.clusterRedis
    ? new RedisStreamLink(options.clusterRedis, CLUSTER_KEY_PREFIX, clusterLogger(logger))
    : undefined;
  if (cluster) {
    shareSilences(silences.store, cluster, clusterLogger(logger), options.dataRetention);
    shareNotificationLog(nflog, cluster, clusterLogger(logger));
    logger.info('Sharing silences and the notification log with the replicas through Redis', {
      replica: cluster.replica,
    });
  }
  const graph = new AlertingGraph({
    store,
    nflog,
    silencer: silences.store,
    notifyMetrics: new NotifyMetrics(registry),
    dispatcherMetrics: new DispatcherMetrics(registry),
    clock,
    scheduler,
    logger,
    externalUrl: inputs.externalUrl,
    claims: cluster
      ? new RedisClaims(cluster.commands, CLUSTER_KEY_PREFIX, cluster.replica)
      : undefined,
    deliveries: cluster
      ? new RedisDeliveries(
          cluster.commands,
          CLUSTER_KEY_PREFIX,
          cluster.replica,
          clusterLogger(logger),
        )
      : undefined,
    history,
  });
  const maintenance = new Maintenance(
    [
      {
        name: 'alerts-gc',
        intervalMs: options.alertsGcInterval,
        run: (now) => void store.gc(now, (alert) => !graph.holds(alert.fingerprint)),
      },
      {
        name: 'inhibitor-gc',
        intervalMs: INHIBITOR_GC_INTERVAL,
        run: (now) => graph.gcInhibitor(now),
      },
      {
        name: 'silences',
        intervalMs: options.maintenanceInterval,
        run: (now) => silences.maintenance(now),
      },
      {
        name: 'nflog',
        intervalMs: options.maintenanceInterval,
        run: (now) => nflog.maintenance(now),
      },
      {
        name: 'notification-history',
        intervalMs: options.maintenanceInterval,
        run: (now) => history.maintenance(now),
      },
      {
        name: 'metrics',
        intervalMs: options.maintenanceInterval,
        run: async (now) => void (await metricStorage.checkpoint(now)),
      },
    ],
    clock,
    scheduler,
    logger.with({ component: 'maintenance' }),
  );
  const metrics = new AlertsMetrics(registry, store, graph.muting, clock);
  const alertIntake = new AlertIntake({
    store,
    clock,
    resolveTimeout: () => reloader.config.config.global.resolve_timeout,
    limits: {
      maxLabelsBytes: options.maxAlertLabelsBytes ?? SERVER_DEFAULTS.maxAlertLabelsBytes,
      maxAnnotationsBytes:
        options.maxAlertAnnotationsBytes ?? SERVER_DEFAULTS.maxAlertAnnotationsBytes,
    },
    metrics,
  });
  registerSilenceMetrics(registry, silences.store, clock);
  const silencesApi = new SilencesApi({ silences: silences.store, clock });
  const peers = cluster
    ? new ClusterPeers(cluster, CLUSTER_KEY_PREFIX, () => hostOf(inputs.externalUrl()), registry)
    : undefined;
  const statusApi = new StatusApi({
    config: () => reloader.config.config,
    startedAt: clock.now(),
    clusterPeers: peers ? () => peers.peers() : undefined,
  });
  const alertsApi = new AlertsApi({
    store,
    routing: graph.routing,
    muting: graph.muting,
    clock,
    receiverLabels: () => statusApi.receiverLabels(),
  });
  const prometheus = assemblePrometheus({
    options,
    ruleQueries: queries.rules,
    registry,
    clock,
    scheduler,
    logger,
    metricStorage,
    alertIntake,
    externalUrl: inputs.externalUrl,
  });
  try {
    await prometheus.check();
  } catch (error) {
    await Promise.all([queries.close(), starts.close()]);
    await Promise.all([
      cluster?.close(),
      store.close(),
      silences.close(),
      nflog.close(clock.now()),
      history.close(),
      metricStorage.close(),
    ]);
    throw error;
  }
  // The threads start and compile their code while the HTTP server starts; nothing waits for them.
  const warming = performance.now();
  let warm = false;

  queries
    .warmUp()
    .then(
      () => logger.debug('query thread warmed', { ms: Math.round(performance.now() - warming) }),
      (error: Error) => logger.warn('warming the query threads failed', { err: error.message }),
    )
    .finally(() => {
      warm = true;
      // A thread started early that no pool took (the rules' pool takes one when rules load).
      void starts.close();
    });
  return {
    apiParts: {
      alertIntake,
      alertsApi,
      statusApi,
      silencesApi,
      notificationsApi: new NotificationsApi(history),
      routesApi: new RoutesApi(graph.routing),
      ruleManager: prometheus.ruleManager,
      scrapeManager: prometheus.scrapeManager,
      exemplars: prometheus.exemplars,
      prometheusStatus: prometheusStatusApi({
        options,
        reloader,
        prometheus,
        metricStorage,
        queries,
        clock,
      }),
      queries: queries.api,
      readiness: { ready: () => warm && prometheus.ruleManager.warm },
    },
    metricStorage,
    start: async () => {
      await reloader.subscribe(graph);
      await reloader.subscribe(prometheus.subscriber);
      maintenance.start();
      peers?.start();
    },
    close: async () => {
      peers?.stop();
      await cluster?.close();
      prometheus.stop();
      await queries.close();
      maintenance.stop();
      await graph.stop();
      await store.close();
      await silences.close();
      await nflog.close(clock.now());
      await history.close();
      await metricStorage.close();
    },
  };
}
