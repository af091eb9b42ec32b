export { TracingModule } from './tracing.module';
export type { TracingOptionsFactory } from './tracing.module-definition';
export { TRACING_MEMORY_EXPORTER, TRACING_METRICS, TRACING_SERVICE } from './tracing.constants';
export type { ITracingService } from './tracing-service.interface';
export type {
  ISpan,
  ISpanContext,
  ISpanLink,
  ISpanOptions,
  SpanAttributes,
  SpanAttributeValue,
  SpanKind,
  SpanStatus,
} from './span.interface';
export { Span } from './span.decorator';
export type {
  HttpSpanOptions,
  OtlpExporterOptions,
  RedisExemplarOptions,
  RedisMetricsOptions,
  RedisRequestInfo,
  RedisResponseInfo,
  RedisSpanOptions,
  TracingExporter,
  TracingExporterType,
  TracingModuleOptions,
  TracingSamplingOptions,
} from './tracing-options.interface';
export type { OtherInstrumentationsMode } from './other-instrumentations';
export type { ExemplarFilterName } from './metrics/exemplar.filter';
export { registerRedisClient } from './redis/redis-interception';
export { provideRedisClient, type RedisClientProviderOptions } from './redis/redis-client.provider';
export { RedisCommandMetrics } from './metrics/redis-command.metrics';
export { TracingMetricsController } from './metrics/redis-metrics.controller';
