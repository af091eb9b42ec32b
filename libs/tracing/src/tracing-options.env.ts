import { EXEMPLAR_FILTERS, type ExemplarFilterName } from './metrics/exemplar.filter';
import type {
  SemanticConventionMode,
  SemanticConventions,
  TracingExporterType,
  TracingSamplingOptions,
} from './tracing-options.interface';

/** The `OTEL_*` variables this library reads, as given (unset or blank variables are absent). */
export type OtelEnvironment = Partial<Record<(typeof OTEL_VARIABLES)[number], string>>;

const OTEL_VARIABLES = [
  'OTEL_SERVICE_NAME',
  'OTEL_TRACES_EXPORTER',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_SEMCONV_STABILITY_OPT_IN',
  'OTEL_METRICS_EXEMPLAR_FILTER',
] as const;

/** Reads the variables from `env` (the process environment by default). */
export function readOtelEnvironment(env: NodeJS.ProcessEnv = process.env): OtelEnvironment {
  const read: OtelEnvironment = {};
  for (const name of OTEL_VARIABLES) {
    const value = env[name]?.trim();
    if (value) read[name] = value;
  }
  return read;
}

/**
 * The exporter named by `OTEL_TRACES_EXPORTER`, or `otlp` when only an endpoint is set. The
 * specification's default is `otlp`, but a library must not send spans to a collector nobody
 * configured, so without any variable the default is `none`.
 */
export function exporterFromEnvironment(env: OtelEnvironment): TracingExporterType {
  const named = env.OTEL_TRACES_EXPORTER?.split(',')[0].trim().toLowerCase();
  if (named === 'otlp' || named === 'console' || named === 'none') return named;
  if (named !== undefined) {
    throw new Error(
      `TracingModule: OTEL_TRACES_EXPORTER must be otlp, console or none, got ${JSON.stringify(named)}`,
    );
  }
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  return endpoint ? 'otlp' : 'none';
}

/** Where OTLP spans go when the options name no endpoint; the generic variable gets the signal path. */
export function endpointFromEnvironment(env: OtelEnvironment): string {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT ?? 'http://localhost:4318';
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

const SAMPLERS: Record<string, Omit<TracingSamplingOptions, 'ratio'>> = {
  always_on: { strategy: 'always', parentBased: false },
  always_off: { strategy: 'never', parentBased: false },
  traceidratio: { strategy: 'ratio', parentBased: false },
  parentbased_always_on: { strategy: 'always', parentBased: true },
  parentbased_always_off: { strategy: 'never', parentBased: true },
  parentbased_traceidratio: { strategy: 'ratio', parentBased: true },
};

/** Sampling from `OTEL_TRACES_SAMPLER[_ARG]`, or undefined when the variable is not set. */
export function samplingFromEnvironment(env: OtelEnvironment): TracingSamplingOptions | undefined {
  const name = env.OTEL_TRACES_SAMPLER?.toLowerCase();
  if (name === undefined) return undefined;
  const sampler = SAMPLERS[name];
  if (!sampler) {
    const known = Object.keys(SAMPLERS).join(', ');
    throw new Error(`TracingModule: OTEL_TRACES_SAMPLER must be one of ${known}, got "${name}"`);
  }
  if (sampler.strategy !== 'ratio') return sampler;
  const ratio = env.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG);
  if (!(ratio >= 0 && ratio <= 1)) {
    throw new Error(
      `TracingModule: OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${env.OTEL_TRACES_SAMPLER_ARG}"`,
    );
  }
  return { ...sampler, ratio };
}

/**
 * `OTEL_SEMCONV_STABILITY_OPT_IN` as OpenTelemetry's instrumentations read it: a comma-separated
 * list where `database` and `http` switch to the stable attribute names and `database/dup` and
 * `http/dup` emit both; other entries belong to other instrumentations and are ignored.
 */
export function semconvFromEnvironment(env: OtelEnvironment): SemanticConventions {
  const entries = (env.OTEL_SEMCONV_STABILITY_OPT_IN ?? '')
    .split(',')
    .map((entry) => entry.trim().toLowerCase());
  const mode = (domain: string): SemanticConventionMode =>
    entries.includes(`${domain}/dup`) ? 'dup' : entries.includes(domain) ? 'stable' : 'old';
  return { database: mode('database'), http: mode('http') };
}

/** The exemplar filter `OTEL_METRICS_EXEMPLAR_FILTER` names, or undefined when it is not set. */
export function exemplarFilterFromEnvironment(
  env: OtelEnvironment,
): ExemplarFilterName | undefined {
  const name = env.OTEL_METRICS_EXEMPLAR_FILTER?.toLowerCase();
  if (name === undefined) return undefined;
  const filter = EXEMPLAR_FILTERS.find((known) => known === name);
  if (filter === undefined) {
    throw new Error(
      `TracingModule: OTEL_METRICS_EXEMPLAR_FILTER must be one of ${EXEMPLAR_FILTERS.join(', ')}, got "${name}"`,
    );
  }
  return filter;
}
