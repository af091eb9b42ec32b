import {
  Inject,
  Module,
  Optional,
  RequestMethod,
  type DynamicModule,
  type MiddlewareConsumer,
  type NestModule,
  type Provider,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { recordFastifyRoutes } from './http/fastify-routes';
import { HttpSpanMiddleware } from './http/http-span.middleware';
import { redisCommandMetrics, type RedisCommandMetrics } from './metrics/redis-command.metrics';
import { TracerProviderHost } from './provider/tracer-provider.host';
import { RedisCommandTracing } from './redis/redis-command-tracing.lifecycle';
import {
  REDIS_COMMAND_TRACING,
  TRACER_PROVIDER_HOST,
  TRACING_MEMORY_EXPORTER,
  TRACING_METRICS,
  TRACING_OPTIONS,
  TRACING_SERVICE,
} from './tracing.constants';
import {
  ConfigurableTracingModule,
  TRACING_ASYNC_OPTIONS_TYPE,
  TRACING_MODULE_OPTIONS,
  TRACING_OPTIONS_TYPE,
} from './tracing.module-definition';
import type { ResolvedTracingOptions, TracingModuleOptions } from './tracing-options.interface';
import { resolveTracingOptions } from './tracing-options.validation';
import { TracingService } from './tracing.service';

const PROVIDERS: Provider[] = [
  {
    provide: TRACING_OPTIONS,
    useFactory: (options: TracingModuleOptions | null | undefined) => {
      // forRoot() defaults to {}: only a forRootAsync factory can hand over nothing.
      if (options === null || options === undefined) {
        throw new Error(
          `TracingModule: the options factory returned ${String(options)}; return an options object ({} for the defaults)`,
        );
      }
      return resolveTracingOptions(options);
    },
    inject: [TRACING_MODULE_OPTIONS],
  },
  {
    provide: TRACER_PROVIDER_HOST,
    useFactory: (options: ResolvedTracingOptions) => TracerProviderHost.start(options),
    inject: [TRACING_OPTIONS],
  },
  {
    provide: TRACING_METRICS,
    useFactory: (options: ResolvedTracingOptions) =>
      options.metrics.enabled ? redisCommandMetrics(options.metrics) : null,
    inject: [TRACING_OPTIONS],
  },
  {
    provide: REDIS_COMMAND_TRACING,
    useFactory: (
      options: ResolvedTracingOptions,
      host: TracerProviderHost,
      metrics: RedisCommandMetrics | null,
    ) => new RedisCommandTracing(options, host.scope, metrics),
    inject: [TRACING_OPTIONS, TRACER_PROVIDER_HOST, TRACING_METRICS],
  },
  {
    provide: TRACING_SERVICE,
    useFactory: (host: TracerProviderHost) => new TracingService(host.tracer, host.scope),
    inject: [TRACER_PROVIDER_HOST],
  },
  {
    provide: TRACING_MEMORY_EXPORTER,
    useFactory: (host: TracerProviderHost) => host.memoryExporter,
    inject: [TRACER_PROVIDER_HOST],
  },
  HttpSpanMiddleware,
];
const EXPORTS = [TRACING_SERVICE, TRACING_MEMORY_EXPORTER, TRACING_METRICS];

/**
 * OpenTelemetry tracing for a Nest application: provides `TRACING_SERVICE`, traces Redis commands
 * and incoming HTTP requests. Options are checked when the application starts, and a bad one fails
 * the start with a message naming it.
 */
@Module({})
export class TracingModule extends ConfigurableTracingModule implements NestModule {
  constructor(
    @Inject(TRACING_OPTIONS) private readonly options: ResolvedTracingOptions,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {
    super();
  }

  /** Configures tracing with `options`; `isGlobal` makes the service injectable everywhere. */
  static override forRoot(options: typeof TRACING_OPTIONS_TYPE = {}): DynamicModule {
    return withProviders(super.forRoot(options));
  }

  /** Configures tracing with options from a factory, a class or an existing provider. */
  static override forRootAsync(options: typeof TRACING_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withProviders(super.forRootAsync(options));
  }

  configure(consumer: MiddlewareConsumer): void {
    if (!this.options.enabled || !this.options.traceHttpRequests) return;
    consumer.apply(HttpSpanMiddleware).forRoutes({ path: '*splat', method: RequestMethod.ALL });
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter?.getType() === 'fastify') recordFastifyRoutes(adapter.getInstance());
  }
}

function withProviders(definition: DynamicModule): DynamicModule {
  return {
    ...definition,
    providers: [...(definition.providers ?? []), ...PROVIDERS],
    exports: [...(definition.exports ?? []), ...EXPORTS],
  };
}
