import type { OnModuleDestroy } from '@nestjs/common';
import type { Tracer } from '@opentelemetry/api';
import type { RedisCommandMetrics } from '../metrics/redis-command.metrics';
import type { ResolvedTracingOptions } from '../tracing-options.interface';
import { RedisCommandTracer } from './redis-command.tracer';
import { activateRedisTracing, deactivateRedisTracing } from './redis-interception';

/**
 * Ties the driver wrappers to the module's life: installed as soon as the module's providers are
 * built (before other modules' `onModuleInit` create clients and subscribers), removed on destroy.
 * Nothing is installed when neither spans nor metrics of commands are wanted.
 */
export class RedisCommandTracing implements OnModuleDestroy {
  private readonly tracer: RedisCommandTracer | undefined;

  constructor(
    options: ResolvedTracingOptions,
    tracer: Tracer,
    metrics: RedisCommandMetrics | null,
  ) {
    const spans = options.enabled && options.traceRedisCommands;
    if (spans || metrics !== null) {
      this.tracer = new RedisCommandTracer(tracer, options.spans, spans, metrics);
      activateRedisTracing(this.tracer);
    }
  }

  onModuleDestroy(): void {
    if (this.tracer !== undefined) deactivateRedisTracing(this.tracer);
  }
}
