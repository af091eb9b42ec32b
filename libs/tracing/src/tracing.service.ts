import { context, trace, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { SpanAdapter, toException, toSpanOptions } from './span.adapter';
import type { ISpan, ISpanOptions, SpanAttributes, SpanAttributeValue } from './span.interface';
import type { ITracingService } from './tracing-service.interface';
import { withTracingScope, type TracingScope } from './tracing-scope';

/** {@link ITracingService} on an OpenTelemetry tracer; the current span comes from the API context. */
export class TracingService implements ITracingService {
  constructor(
    private readonly tracer: Tracer,
    /** The module instance's scope, carried by the contexts of `withSpan`. */
    private readonly scope: TracingScope = { tracer },
  ) {}

  async withSpan<T>(name: string, fn: () => T | Promise<T>, options?: ISpanOptions): Promise<T> {
    const span = this.tracer.startSpan(name, toSpanOptions(options));
    try {
      const inSpan = withTracingScope(trace.setSpan(context.active(), span), this.scope);
      const result = await context.with(inSpan, fn);
      span.setStatus({ code: SpanStatusCode.OK });
      return result;
    } catch (error) {
      span.recordException(toException(error));
      const message = error instanceof Error ? error.message : String(error);
      span.setStatus({ code: SpanStatusCode.ERROR, message });
      throw error;
    } finally {
      span.end();
    }
  }

  startSpan(name: string, options?: ISpanOptions): ISpan {
    return new SpanAdapter(this.tracer.startSpan(name, toSpanOptions(options)));
  }

  getCurrentSpan(): ISpan | undefined {
    const span = trace.getActiveSpan();
    return span ? new SpanAdapter(span) : undefined;
  }

  setAttribute(key: string, value: SpanAttributeValue): void {
    trace.getActiveSpan()?.setAttribute(key, value);
  }

  addEvent(name: string, attributes?: SpanAttributes): void {
    trace.getActiveSpan()?.addEvent(name, attributes);
  }

  recordException(error: unknown): void {
    trace.getActiveSpan()?.recordException(toException(error));
  }
}
