import type { ClusterRedisOptions } from '../cluster';
import type { LogFormat, LogLevel } from '../logging/logger';

/** Everything the server needs from its command line, already validated. */
export interface ServerOptions {
  configFile: string;
  storagePath: string;
  listenAddress: string;
  /** `--web.external-url` as given, or undefined for the default `http://<hostname>:<port>`. */
  externalUrl: string | undefined;
  /** `--web.route-prefix` as given, or undefined for the external URL's path. */
  routePrefix: string | undefined;
  /** `--web.config.file`: TLS and basic auth settings (exporter-toolkit format), if given. */
  webConfigFile?: string;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** `--alerts.gc-interval`: how often resolved alerts are removed from the store, ms. */
  alertsGcInterval: number;
  /** `--data.retention`: how long notification log entries (and silences) are kept, ms. */
  dataRetention: number;
  /**
   * `--storage.tsdb.retention.time`: how long the metric store keeps samples, ms (Infinity: no
   * limit by time). Absent: `dataRetention`, as servers assembled in-process have it.
   */
  tsdbRetentionTime?: number;
  /** `--storage.tsdb.retention.size`: most bytes of the metric store on disk; 0 for no limit. */
  tsdbRetentionSize?: number;
  /** `--data.maintenance-interval`: how often the notification log is compacted, ms. */
  maintenanceInterval: number;
  /** `--silences.max-silences`: most silences that are not expired; 0 for no limit. */
  maxSilences: number;
  /** `--silences.max-silence-size-bytes`: largest silence as stored; 0 for no limit. */
  maxSilenceSizeBytes: number;
  /** `--web.max-request-bytes`: longest request body accepted; 0 for no limit. */
  maxRequestBytes?: number;
  /** `--web.get-concurrency`: most GET requests served at once; 0 for max(CPUs, 8). */
  getConcurrency?: number;
  /** `--web.timeout`: longest a request may take before a 503, ms; 0 for none. */
  webTimeout?: number;
  /**
   * Whether the main thread's full collections are paced by the heap's growth (`HeapPacer`): on
   * for the server's own process; off where the server runs inside another program (tests).
   */
  paceHeap?: boolean;
  /** `--web.enable-remote-write-receiver`: whether `POST /api/v1/write` appends to the metric store. */
  enableRemoteWriteReceiver?: boolean;
  /** `--cluster.redis-*`: the Redis through which replicas share state; none alone. */
  clusterRedis?: ClusterRedisOptions;
  /** `--alerts.max-labels-size-bytes`: most bytes of label names and values per alert; 0: none. */
  maxAlertLabelsBytes?: number;
  /** `--alerts.max-annotations-size-bytes`: most bytes of annotations (and generator URL). */
  maxAlertAnnotationsBytes?: number;
  /** `--rules.config.file`: a Prometheus-style file with the rules to evaluate; none when empty. */
  rulesConfigFile?: string;
  /** `--rules.alert.resend-delay`: how often a firing rule alert is sent again, ms. */
  rulesResendDelay?: number;
  /** `--rules.alert.for-outage-tolerance`: the longest downtime after which `for` is restored, ms. */
  rulesForOutageTolerance?: number;
  /** `--rules.alert.for-grace-period`: the least wait before a restored alert fires, ms. */
  rulesForGracePeriod?: number;
  /**
   * `--web.trace-url`: a trace's address in a tracing UI, `{{ .TraceID }}` where its id goes;
   * shown to the web UI in `/api/v1/status/flags`, for links from exemplars.
   */
  traceUrl?: string;
  /** `--web.cors.origin`: origins whose pages may call the Prometheus API (default every one). */
  corsOrigin?: string;
  /** `--rules.datasource.url`: a Prometheus-compatible API that answers the rules' expressions. */
  rulesDatasourceUrl?: string;
  /** `--rules.datasource.timeout`: longest wait for one of its answers, ms. */
  rulesDatasourceTimeout?: number;
  /** `--query.lookback-delta`: how far back an instant selector looks for a sample, ms. */
  queryLookbackDelta?: number;
  /** `--query.timeout`: longest a query may take, its wait for a query thread included, ms. */
  queryTimeout?: number;
  /** `--query.max-concurrency`: queries evaluated at once; more wait in order. */
  queryMaxConcurrency?: number;
  /** `--query.max-samples`: most samples one query may hold in memory at once. */
  queryMaxSamples?: number;
  /**
   * `--enable-feature=promql-delayed-name-removal`: PromQL removes `__name__` when a query
   * finishes rather than where an operation drops it (off: at once, as Prometheus by default).
   */
  promqlDelayedNameRemoval?: boolean;
  /** Every command-line flag and its value, for `/api/v1/status/flags` (none when not started by the CLI). */
  flagValues?: Readonly<Record<string, string>>;
}

/** Defaults of the optional {@link ServerOptions}, the same as the flags'. */
export const SERVER_DEFAULTS = {
  maxRequestBytes: 4 * 1024 * 1024,
  maxAlertLabelsBytes: 64 * 1024,
  maxAlertAnnotationsBytes: 1024 * 1024,
  rulesResendDelay: 60_000,
  rulesForOutageTolerance: 60 * 60_000,
  rulesForGracePeriod: 10 * 60_000,
  rulesDatasourceTimeout: 10_000,
  queryLookbackDelta: 5 * 60_000,
  queryTimeout: 2 * 60_000,
  queryMaxConcurrency: 20,
  queryMaxSamples: 50_000_000,
} as const;

/** Injection token for {@link ServerOptions}. */
export const ServerOptions = Symbol('ServerOptions');
