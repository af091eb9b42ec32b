import { isSpanContextValid, TraceFlags, type SpanContext } from '@opentelemetry/api';

/**
 * Which measurements may carry an exemplar, in the words of OpenTelemetry's exemplar filters
 * (`OTEL_METRICS_EXEMPLAR_FILTER`): `always_on` any command with a trace id (sampled or not),
 * `always_off` none, `trace_based` only one whose span is sampled, so that the trace an exemplar
 * names is one the backend received.
 */
export type ExemplarFilterName = 'always_on' | 'always_off' | 'trace_based';

/** The filter names, in the order errors list them. */
export const EXEMPLAR_FILTERS: readonly ExemplarFilterName[] = [
  'trace_based',
  'always_on',
  'always_off',
];

/**
 * Whether a measurement taken under `spanContext` may carry an exemplar. An exemplar here is a
 * pointer to a trace, so a measurement without a valid span context never gets one (OpenTelemetry's
 * `always_on` would keep it without trace ids, which OpenMetrics cannot tell from no exemplar).
 */
export function exemplarAllowed(
  filter: ExemplarFilterName,
  spanContext: SpanContext | undefined,
): boolean {
  if (filter === 'always_off' || spanContext === undefined) return false;
  if (!isSpanContextValid(spanContext)) return false;
  return filter === 'always_on' || (spanContext.traceFlags & TraceFlags.SAMPLED) !== 0;
}
