import {
  endpointFromEnvironment,
  exemplarFilterFromEnvironment,
  exporterFromEnvironment,
  readOtelEnvironment,
  samplingFromEnvironment,
  semconvFromEnvironment,
  type OtelEnvironment,
} from './tracing-options.env';
import type {
  ResolvedExporter,
  ResolvedTracingOptions,
  TracingModuleOptions,
  TracingSamplingOptions,
} from './tracing-options.interface';
import { validateTracingOptions, type ExporterOptions } from './tracing-options.schema';

const PROVIDER_OPTIONS = ['serviceName', 'resourceAttributes', 'exporter', 'sampling'] as const;

/**
 * Checks the options of `TracingModule` (`tracing-options.schema.ts`) and fills in defaults, then
 * the standard `OTEL_*` variables for what the options leave open. Every error names the option
 * and the bad value. Null stands for the default where the options have one.
 */
export function resolveTracingOptions(
  options: TracingModuleOptions | undefined,
  env: OtelEnvironment = readOtelEnvironment(),
): ResolvedTracingOptions {
  const given = validateTracingOptions(options ?? {});
  const spans = given.spans ?? {};
  const http = given.http ?? {};
  const metrics = given.metrics ?? { enabled: false };
  const exemplars = given.metrics?.exemplars ?? {};
  const semconv = semconvFromEnvironment(env);
  return {
    providerOptions: PROVIDER_OPTIONS.filter((key) => given[key] !== undefined),
    enabled: given.enabled ?? true,
    serviceName: given.serviceName ?? env.OTEL_SERVICE_NAME,
    resourceAttributes: given.resourceAttributes ?? {},
    exporter: exporter(given.exporter ?? {}, env),
    sampling: sampling(given.sampling, env),
    traceRedisCommands: given.traceRedisCommands ?? true,
    traceHttpRequests: given.traceHttpRequests ?? true,
    spans: {
      includeArgs: spans.includeArgs ?? false,
      includeResult: spans.includeResult ?? false,
      maxArgLength: spans.maxArgLength ?? 100,
      excludeCommands: new Set((spans.excludeCommands ?? []).map((name) => name.toUpperCase())),
      connectionCommands: spans.connectionCommands ?? true,
      requireParentSpan: spans.requireParentSpan ?? false,
      requestHook: spans.requestHook,
      responseHook: spans.responseHook,
      statementSerializer: spans.statementSerializer,
      semconv: semconv.database,
    },
    http: {
      requestHook: http.requestHook,
      responseHook: http.responseHook,
      redactQueryString: http.redactQueryString ?? true,
      semconv: semconv.http,
    },
    semconv,
    otherInstrumentations: given.otherInstrumentations ?? 'defer',
    metrics: {
      enabled: metrics.enabled ?? true,
      prefix: metrics.prefix ?? 'redisx_',
      exemplars: {
        filter: exemplars.filter ?? exemplarFilterFromEnvironment(env) ?? 'trace_based',
        slowerThanMillis: exemplars.slowerThanMillis ?? 50,
      },
    },
  };
}

function exporter(given: ExporterOptions, env: OtelEnvironment): ResolvedExporter {
  return {
    type: given.type ?? exporterFromEnvironment(env),
    endpoint: given.endpoint ? withTracesPath(given.endpoint) : endpointFromEnvironment(env),
    headers: given.headers,
    timeoutMillis: given.timeoutMillis ?? 5000,
    maxQueueSize: given.maxQueueSize ?? 2048,
  };
}

/** A collector's base URL gets the traces path; a URL with a path is used as given. */
function withTracesPath(endpoint: string): string {
  const url = new URL(endpoint);
  return url.pathname === '/' ? `${url.origin}/v1/traces` : endpoint;
}

function sampling(
  given: TracingSamplingOptions | undefined,
  env: OtelEnvironment,
): ResolvedTracingOptions['sampling'] {
  const defaults = samplingFromEnvironment(env) ?? { strategy: 'always', parentBased: true };
  if (given === undefined) return { ratio: 1, parentBased: true, ...defaults };
  return {
    strategy: given.strategy,
    ratio: given.ratio ?? 1,
    parentBased: given.parentBased ?? true,
  };
}
