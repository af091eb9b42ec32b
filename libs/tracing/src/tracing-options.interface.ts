import type { Span } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExemplarFilterName } from './metrics/exemplar.filter';
import type { OtherInstrumentationsMode } from './other-instrumentations';

/** Where the library's own tracer provider sends finished spans. */
export type TracingExporterType = 'otlp' | 'console' | 'memory' | 'none';

/** The OTLP exporter (HTTP/protobuf) and where it sends spans. */
export interface OtlpExporterOptions {
  type: 'otlp';
  /**
   * Collector URL. A URL without a path gets `/v1/traces` appended. Default: from
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`, else
   * `http://localhost:4318/v1/traces`.
   */
  endpoint?: string;
  /** Extra HTTP headers, for example an API key. */
  headers?: Record<string, string>;
  /** How long one export may take, retries included, before its spans are dropped. Default 5000. */
  timeoutMillis?: number;
  /** Finished spans waiting for export; beyond it new spans are dropped and counted. Default 2048. */
  maxQueueSize?: number;
}

/** An exporter by name, or the OTLP exporter with its settings. */
export type TracingExporter = TracingExporterType | OtlpExporterOptions;

/** Which traces are recorded. */
export interface TracingSamplingOptions {
  /** `always` records every trace, `never` none, `ratio` the given share of them. */
  strategy: 'always' | 'never' | 'ratio';
  /** Share of traces recorded with `ratio`, from 0 to 1. Default 1. */
  ratio?: number;
  /** Follow the caller's decision when a request carries a sampled or unsampled parent. Default true. */
  parentBased?: boolean;
}

/** What a Redis request hook is given besides the span. */
export interface RedisRequestInfo {
  /** The command name, upper case (`GET`). */
  command: string;
  /** The command's arguments as the driver holds them (credentials not masked). */
  args: readonly unknown[];
  /** The client's `redisx.client` name. */
  client: string;
}

/** What a Redis response hook is given besides the span. */
export interface RedisResponseInfo extends RedisRequestInfo {
  /** The reply, as the driver decoded it. */
  result: unknown;
}

/** What Redis command spans record. */
export interface RedisSpanOptions {
  /** Adds `db.statement.args`, the command's arguments as JSON. Default false. */
  includeArgs?: boolean;
  /** Adds `db.statement.result`, the reply as JSON. Default false. */
  includeResult?: boolean;
  /** Longest `db.statement.args` and `db.statement.result`, in characters. Default 100. */
  maxArgLength?: number;
  /** Commands that get no span, in any case (`['PING', 'info']`). Default none. */
  excludeCommands?: string[];
  /**
   * The commands a driver sends itself on connecting (HELLO, AUTH, SELECT, CLIENT, READONLY, the
   * INFO of the ready check) as children of one `redis.connect` span per connection attempt;
   * `false`: no span for the connection nor for them. Default true.
   */
  connectionCommands?: boolean;
  /** Command spans only inside another span (as instrumentation-ioredis' option). Default false. */
  requireParentSpan?: boolean;
  /** Called with each recording command span as it starts; what it throws is logged, not raised. */
  requestHook?: (span: Span, info: RedisRequestInfo) => void;
  /** Called with each recording command span before it ends on a reply. */
  responseHook?: (span: Span, info: RedisResponseInfo) => void;
  /**
   * Builds `db.statement` (or `db.query.text`) instead of the default, which keeps the command and
   * its keys and replaces values by `?`. What it throws falls back to the default.
   */
  statementSerializer?: (command: string, args: readonly unknown[]) => string;
}

/** What the SERVER span of an incoming HTTP request records. */
export interface HttpSpanOptions {
  /** Called with the span as the request starts (Node's request, under Express or Fastify). */
  requestHook?: (span: Span, request: IncomingMessage) => void;
  /** Called with the span before it ends, once the response is finished or the connection closed. */
  responseHook?: (span: Span, response: ServerResponse) => void;
  /** Replaces every query value of `http.url` (`url.full`) by `REDACTED`. Default true. */
  redactQueryString?: boolean;
}

/** Prometheus RED metrics of Redis commands. */
export interface RedisMetricsOptions {
  /** Default true when `metrics` is given. */
  enabled?: boolean;
  /** Prefix of every metric name. Default `redisx_`. */
  prefix?: string;
  /** Trace ids on the duration histogram for slow and failed commands (OpenMetrics exemplars). */
  exemplars?: RedisExemplarOptions;
}

/** Which commands leave their trace and span ids as exemplars of the duration histogram. */
export interface RedisExemplarOptions {
  /**
   * OpenTelemetry's exemplar filter: `trace_based` only commands in a sampled trace, `always_on`
   * any command in a trace, `always_off` none. Default: `OTEL_METRICS_EXEMPLAR_FILTER`, else
   * `trace_based`.
   */
  filter?: ExemplarFilterName;
  /** A command that takes longer than this many milliseconds is slow and leaves one. Default 50. */
  slowerThanMillis?: number;
}

/** Options of `TracingModule.forRoot` and of the factory of `forRootAsync`. */
export interface TracingModuleOptions {
  /** When false nothing is recorded, but the service still runs callbacks. Default `true`. */
  enabled?: boolean;
  /** `service.name` of the resource. Default: `OTEL_SERVICE_NAME`, else the SDK's `unknown_service:<process>`. */
  serviceName?: string;
  /** Extra resource attributes (`deployment.environment`, `service.version`, ...). */
  resourceAttributes?: Record<string, string | number | boolean>;
  /**
   * Where spans go. Default: `OTEL_TRACES_EXPORTER` when set, else `otlp` when an OTLP endpoint
   * variable is set, else `none` (spans are recorded, context propagates, nothing is exported).
   */
  exporter?: TracingExporter;
  /** Default: from `OTEL_TRACES_SAMPLER`/`OTEL_TRACES_SAMPLER_ARG`, else every trace, parent-based. */
  sampling?: TracingSamplingOptions;
  /** A CLIENT span per Redis command (ioredis and node-redis). Default true. */
  traceRedisCommands?: boolean;
  /** A SERVER span per incoming HTTP request. Default true. */
  traceHttpRequests?: boolean;
  spans?: RedisSpanOptions;
  http?: HttpSpanOptions;
  metrics?: RedisMetricsOptions;
  /**
   * When `@opentelemetry/instrumentation-ioredis`, `-redis` or `-http` is active too: `defer`
   * leaves those spans to it (with a warning; the metrics still count), `replace` removes its
   * wrappers so that every command and request is traced once, here. Default `defer`.
   */
  otherInstrumentations?: OtherInstrumentationsMode;
}

/** {@link TracingModuleOptions} after validation, with defaults and environment filled in. */
export interface ResolvedTracingOptions {
  enabled: boolean;
  serviceName: string | undefined;
  resourceAttributes: Record<string, string | number | boolean>;
  exporter: ResolvedExporter;
  sampling: Required<TracingSamplingOptions>;
  traceRedisCommands: boolean;
  traceHttpRequests: boolean;
  spans: ResolvedSpanOptions;
  http: ResolvedHttpOptions;
  metrics: ResolvedMetricsOptions;
  /** Which attribute names spans carry, from `OTEL_SEMCONV_STABILITY_OPT_IN`. */
  semconv: SemanticConventions;
  otherInstrumentations: OtherInstrumentationsMode;
  /**
   * The options given that configure a tracer provider (`serviceName`, `resourceAttributes`,
   * `exporter`, `sampling`): ignored, and named in a warning, when the application has one.
   */
  providerOptions: string[];
}

/** Metric settings after validation. */
export interface ResolvedMetricsOptions {
  enabled: boolean;
  prefix: string;
  exemplars: Required<RedisExemplarOptions>;
}

/** Exporter settings after validation. */
export interface ResolvedExporter {
  type: TracingExporterType;
  endpoint: string;
  headers: Record<string, string> | undefined;
  timeoutMillis: number;
  maxQueueSize: number;
}

/** Command span settings after validation; command names are upper case. */
export interface ResolvedSpanOptions {
  includeArgs: boolean;
  includeResult: boolean;
  maxArgLength: number;
  excludeCommands: ReadonlySet<string>;
  connectionCommands: boolean;
  requireParentSpan: boolean;
  requestHook: RedisSpanOptions['requestHook'];
  responseHook: RedisSpanOptions['responseHook'];
  statementSerializer: RedisSpanOptions['statementSerializer'];
  /** The attribute names of database spans. */
  semconv: SemanticConventionMode;
}

/** HTTP span settings after validation. */
export interface ResolvedHttpOptions {
  requestHook: HttpSpanOptions['requestHook'];
  responseHook: HttpSpanOptions['responseHook'];
  redactQueryString: boolean;
  /** The attribute names of HTTP spans. */
  semconv: SemanticConventionMode;
}

/**
 * `old`: the attribute names before OpenTelemetry's stable conventions (`db.statement`,
 * `http.method`), `stable`: the stable ones (`db.query.text`, `http.request.method`), `dup`: both.
 */
export type SemanticConventionMode = 'old' | 'stable' | 'dup';

/** The mode of each domain. */
export interface SemanticConventions {
  database: SemanticConventionMode;
  http: SemanticConventionMode;
}
