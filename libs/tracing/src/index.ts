export { TracingModule } from './tracing.module';
export { TRACING_MEMORY_EXPORTER, TRACING_SERVICE } from './tracing.constants';
export type { ITracingService } from './tracing-service.interface';
export type {
  ISpan,
  ISpanOptions,
  SpanAttributes,
  SpanAttributeValue,
  SpanKind,
  SpanStatus,
} from './span.interface';
export type { TracingExporter, TracingModuleOptions } from './tracing-options.interface';
