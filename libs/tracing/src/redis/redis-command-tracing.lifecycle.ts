import type { OnModuleDestroy } from '@nestjs/common';
import type { RedisCommandMetrics } from '../metrics/redis-command.metrics';
import type { ResolvedTracingOptions } from '../tracing-options.interface';
import { RedisCommandTracer } from './redis-command.tracer';
import type { TracingScope } from '../tracing-scope';
import { retainRedisInterception, releaseRedisInterception } from './redis-interception';

/**
 * Ties the driver wrappers to the module's life: installed as soon as the module's providers are
 * built (before other modules' `onModuleInit` create clients and subscribers), and removed when
 * the last module instance that wants them is destroyed. This instance's commands go to its own
 * command tracer (its scope's). Nothing is installed when neither spans nor metrics are wanted.
 */
export class RedisCommandTracing implements OnModuleDestroy {
  private readonly tracer: RedisCommandTracer | undefined;

  constructor(
    options: ResolvedTracingOptions,
    private readonly scope: TracingScope,
    metrics: RedisCommandMetrics | null,
  ) {
    const spans = options.enabled && options.traceRedisCommands;
    if (spans || metrics !== null) {
      this.tracer = new RedisCommandTracer(scope.tracer, options.spans, spans, metrics);
      scope.redis = this.tracer;
      retainRedisInterception(options.otherInstrumentations);
    }
  }

  onModuleDestroy(): void {
    if (this.tracer === undefined) return;
    this.scope.redis = undefined;
    releaseRedisInterception();
  }
}
