import 'reflect-metadata';
import { SpanStatusCode, context, trace, type Context } from '@opentelemetry/api';
import { toException, toSpanOptions } from './span.adapter';
import type { ISpanOptions } from './span.interface';
import { RUNNING_SCOPES, withTracingScope, type TracingScope } from './tracing-scope';

/** The scope of the application a call runs for. */
const scopeOf = (ctx: Context): TracingScope | undefined =>
  RUNNING_SCOPES.current((scope) => scope, ctx);

/**
 * Runs the decorated method in a span named `name` (default `ClassName.method`), kind `INTERNAL`
 * unless `options.kind` says otherwise: status OK when it returns or its promise resolves; on a
 * throw or rejection the exception is recorded, status ERROR, and the same error propagates.
 * The wrapper keeps the method's name and every metadata key on it (route, guards, Swagger), so
 * it can decorate controller handlers too. The span goes to the tracer of the application the
 * call runs for (see `TracingScopes`); without a running `TracingModule` it only calls the method.
 */
export function Span(name?: string, options: ISpanOptions = {}): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    const original = descriptor.value as unknown;
    if (typeof original !== 'function') {
      throw new TypeError(`@Span() decorates methods; ${String(propertyKey)} is not one`);
    }
    const owner = (target as { constructor?: { name?: string } }).constructor?.name ?? 'Object';
    const spanName = name ?? `${owner}.${String(propertyKey)}`;
    const spanOptions = toSpanOptions({ kind: 'INTERNAL', ...options });
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      const active = context.active();
      const scope = scopeOf(active);
      if (scope === undefined) return original.apply(this, args);
      const span = scope.tracer.startSpan(spanName, spanOptions, active);
      const fail = (error: unknown) => {
        span.recordException(toException(error));
        span.setStatus({
          code: SpanStatusCode.ERROR,
          message: error instanceof Error ? error.message : String(error),
        });
        span.end();
      };
      const succeed = () => {
        span.setStatus({ code: SpanStatusCode.OK });
        span.end();
      };
      try {
        const result = context.with(withTracingScope(trace.setSpan(active, span), scope), () =>
          original.apply(this, args),
        );
        if (result instanceof Promise) {
          return result.then(
            (value) => {
              succeed();
              return value;
            },
            (error: unknown) => {
              fail(error);
              throw error;
            },
          );
        }
        succeed();
        return result;
      } catch (error) {
        fail(error);
        throw error;
      }
    };
    Object.defineProperty(wrapped, 'name', { value: original.name });
    for (const key of Reflect.getMetadataKeys(original)) {
      Reflect.defineMetadata(key, Reflect.getMetadata(key, original), wrapped);
    }
    descriptor.value = wrapped as never;
    return descriptor;
  };
}
