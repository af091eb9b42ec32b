import { Module, type DynamicModule } from '@nestjs/common';
import {
  TracingMetricsController,
  TracingModule,
  type TracingModuleOptions,
} from '@redisx/tracing';
import { OrderEvents } from './order-events';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';
import { cacheRedisProvider, REDIS_URL, RedisShutdown } from './redis.providers';

/** How the example traces: the console exporter prints each finished trace as a tree. */
export const EXAMPLE_TRACING: TracingModuleOptions = {
  serviceName: 'tracing-example',
  exporter: 'console',
  spans: { excludeCommands: ['INFO', 'CLIENT'] },
  metrics: { prefix: 'myapp_redis_' },
};

/** The example application; `tracing` and `redisUrl` are parameters so tests can vary them. */
@Module({})
export class AppModule {
  static create(redisUrl: string, tracing: TracingModuleOptions = EXAMPLE_TRACING): DynamicModule {
    return {
      module: AppModule,
      imports: [TracingModule.forRoot({ ...tracing, isGlobal: true })],
      controllers: [OrdersController, TracingMetricsController],
      providers: [
        { provide: REDIS_URL, useValue: redisUrl },
        cacheRedisProvider,
        OrdersService,
        OrderEvents,
        RedisShutdown,
      ],
    };
  }
}
