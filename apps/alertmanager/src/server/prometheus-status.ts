import { availableParallelism } from 'node:os';
import { PrometheusStatusApi, processNodeOptions } from '../api';
import type { AssembledQueryThreads } from './assemble-query-threads';
import type { ConfigReloader } from '../reload/config-reloader';
import type { MetricStorage } from '../tsdb';
import type { AssembledPrometheus } from './assemble-prometheus';
import type { ServerOptions } from './server-options';
import type { Clock } from '../time/clock';

/** What the Prometheus status endpoints are built from. */
export interface PrometheusStatusWiring {
  options: ServerOptions;
  reloader: ConfigReloader;
  prometheus: AssembledPrometheus;
  metricStorage: MetricStorage;
  queries: AssembledQueryThreads;
  clock: Clock;
}

/**
 * Wires `/api/v1/status/{config,flags,runtimeinfo,tsdb}` to the running server: the rules
 * configuration in force, the command line, the reloader, the query threads and the metric store
 * (its retention as `assembleAlerting` opens it).
 */
export function prometheusStatusApi(inputs: PrometheusStatusWiring): PrometheusStatusApi {
  const { options, reloader, metricStorage, queries } = inputs;
  return new PrometheusStatusApi({
    prometheusConfig: () => inputs.prometheus.config(),
    flags: options.flagValues ?? {},
    store: metricStorage.store,
    clock: inputs.clock,
    runtime: {
      startedAt: inputs.clock.now(),
      cwd: process.cwd(),
      lastReload: () => reloader.lastReload,
      corruptions: () => (metricStorage.recovery.ignoredBytes > 0 ? 1 : 0),
      threads: () => 1 + queries.threads(),
      cpus: availableParallelism(),
      retention: {
        timeMs: options.tsdbRetentionTime ?? options.dataRetention,
        bytes: options.tsdbRetentionSize ?? 0,
      },
      nodeOptions: processNodeOptions(),
      nodeDebug: process.env['NODE_DEBUG'] ?? '',
    },
  });
}
