import type { Registry } from 'prom-client';
import { openAlertStore } from '../alerts';
import { AlertsMetrics } from '../alerts/alerts-metrics';
import { AlertingGraph } from '../alerting/alerting-graph';
import { Maintenance } from '../alerting/maintenance';
import { AlertsApi, StatusApi } from '../api/v2';
import { DispatcherMetrics, realScheduler } from '../dispatch';
import { INHIBITOR_GC_INTERVAL } from '../inhibit';
import type { Logger } from '../logging/logger';
import { NflogMetrics, NO_MUTER, NotificationLog, NotifyMetrics } from '../notify';
import type { ConfigReloader } from '../reload/config-reloader';
import type { Clock } from '../time/clock';
import type { ServerOptions } from './server-options';

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
  apiParts: { alertsApi: AlertsApi; statusApi: StatusApi };
  /** Builds the graph for the running config and starts notifying and maintenance. */
  start(): Promise<void>;
  /** Stops notifying, then writes the stores kept on disk. */
  close(): Promise<void>;
}

/**
 * Opens the stores kept under `--storage.path` and wires the store, the notification log, the
 * alerting graph (rebuilt on every reload), periodic maintenance and the API's logic together.
 */
export async function assembleAlerting(inputs: AlertingInputs): Promise<AssembledAlerting> {
  const { options, registry, reloader, clock, logger } = inputs;
  const store = await openAlertStore({ dir: options.storagePath, clock, logger });
  const nflog = await NotificationLog.open({
    storagePath: options.storagePath,
    retention: options.dataRetention,
    now: clock.now(),
    logger,
    metrics: new NflogMetrics(registry),
  });
  const scheduler = realScheduler(clock);
  const graph = new AlertingGraph({
    store,
    nflog,
    silencer: NO_MUTER,
    notifyMetrics: new NotifyMetrics(registry),
    dispatcherMetrics: new DispatcherMetrics(registry),
    clock,
    scheduler,
    logger,
    externalUrl: inputs.externalUrl,
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
        name: 'nflog',
        intervalMs: options.maintenanceInterval,
        run: (now) => nflog.maintenance(now),
      },
    ],
    clock,
    scheduler,
    logger.with({ component: 'maintenance' }),
  );
  const metrics = new AlertsMetrics(registry, store, graph.muting, clock);
  const alertsApi = new AlertsApi({
    store,
    routing: graph.routing,
    muting: graph.muting,
    clock,
    resolveTimeout: () => reloader.config.config.global.resolve_timeout,
    metrics,
  });
  const statusApi = new StatusApi({ config: () => reloader.config.config, startedAt: clock.now() });
  return {
    apiParts: { alertsApi, statusApi },
    start: async () => {
      await reloader.subscribe(graph);
      maintenance.start();
    },
    close: async () => {
      maintenance.stop();
      await graph.stop();
      await store.close();
      await nflog.close(clock.now());
    },
  };
}
