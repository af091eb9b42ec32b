import { Controller, Get, Inject, Injectable, Logger, Module, Param } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { getFreePort, provideRedis, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import {
  provideRedisClient,
  Span,
  TRACING_MEMORY_EXPORTER,
  TRACING_SERVICE,
  TracingMetricsController,
  TracingModule,
  type ITracingService,
  type TracingModuleOptions,
  type TracingOptionsFactory,
} from '../src';
import type { TracerProviderHost } from '../src/provider/tracer-provider.host';
import { TRACER_PROVIDER_HOST } from '../src/tracing.constants';
import { childrenOf, keyPrefix, only, startTracedApp } from './support/traced-app.harness';
import { CACHE, OrderController, OrderService, PREFIX } from './support/shop.fixture';

const prefix = keyPrefix();
let redis: TestRedis;
const unwrappedSendCommand = Redis.prototype.sendCommand;

beforeAll(async () => {
  redis = await provideRedis();
});

afterAll(async () => {
  const client = new Redis(redis.url);
  const keys = await client.keys(`${prefix}:*`);
  if (keys.length > 0) await client.del(...keys);
  client.disconnect();
  await redis.stop();
});

/** The shop with a named ioredis client, under the given tracing module. */
function shopMetadata(clients: Redis[]) {
  return {
    controllers: [OrderController],
    providers: [
      OrderService,
      { provide: PREFIX, useValue: prefix },
      provideRedisClient({
        provide: CACHE,
        name: 'cache',
        useFactory: () => {
          const client = new Redis(redis.url);
          clients.push(client);
          return client;
        },
      }),
    ],
  };
}

async function runShop(options: TracingModuleOptions) {
  const clients: Redis[] = [];
  const shop = await startTracedApp(shopMetadata(clients), options);
  return {
    ...shop,
    close: async () => {
      await shop.app.close();
      for (const client of clients) client.disconnect();
    },
  };
}

describe('switching tracing off', () => {
  it('records nothing and leaves the drivers unwrapped with enabled: false', async () => {
    const shop = await runShop({ enabled: false });
    expect(Redis.prototype.sendCommand).toBe(unwrappedSendCommand);
    await shop.agent.get('/orders/1').expect(200);
    expect(shop.app.get(TRACING_MEMORY_EXPORTER)).toBeNull();
    await shop.close();
  });

  it('keeps HTTP and custom spans but adds no Redis wrapper with traceRedisCommands: false', async () => {
    const shop = await runShop({ traceRedisCommands: false });
    expect(Redis.prototype.sendCommand).toBe(unwrappedSendCommand);
    await shop.agent.get('/orders/2').expect(200);
    expect(shop.spans().map((span) => span.name)).toEqual(['order.load', 'GET /orders/:id']);
    await shop.close();
  });

  it('keeps Redis spans but makes no HTTP span with traceHttpRequests: false', async () => {
    const shop = await runShop({ traceHttpRequests: false });
    await shop.agent.get('/orders/3').expect(200);
    const names = shop.spans().map((span) => span.name);
    expect(names).toContain('order.load');
    expect(names).toContain('redis.GET');
    expect(names).not.toContain('GET /orders/:id');
    await shop.close();
  });

  it('removes its wrappers when the application closes', async () => {
    const shop = await runShop({});
    expect(Redis.prototype.sendCommand).not.toBe(unwrappedSendCommand);
    expect(Redis.prototype.sendCommand.name).toBe('sendCommand');
    await shop.close();
    expect(Redis.prototype.sendCommand).toBe(unwrappedSendCommand);
  });
});

describe('RED metrics', () => {
  it('counts commands, errors and durations under the prefix and serves them as Prometheus text', async () => {
    const clients: Redis[] = [];
    const metadata = shopMetadata(clients);
    const shop = await startTracedApp(
      { ...metadata, controllers: [...metadata.controllers, TracingMetricsController] },
      { metrics: { prefix: 'myapp_redis_' } },
    );
    await shop.agent.get('/orders/4').expect(200);
    await shop.agent.get('/orders/4/broken').expect(500);
    const response = await shop.agent.get('/metrics').expect(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = response.text;
    expect(text).toContain(
      'myapp_redis_commands_total{command="GET",client="cache",status="success"} 1',
    );
    expect(text).toContain(
      'myapp_redis_commands_total{command="INCR",client="cache",status="error"} 1',
    );
    expect(text).toContain(
      'myapp_redis_errors_total{command="INCR",client="cache",error_type="WRONGTYPE"} 1',
    );
    expect(text).toMatch(
      /myapp_redis_command_duration_seconds_bucket\{le="0\.05",command="SET",client="cache"\} 1\n/,
    );
    expect(text).toMatch(
      /myapp_redis_command_duration_seconds_count\{command="GET",client="cache"\} 1\n/,
    );
    await shop.app.close();
    for (const client of clients) client.disconnect();
  });

  it('answers 404 at /metrics when metrics are not enabled', async () => {
    const shop = await startTracedApp({ controllers: [TracingMetricsController] }, {});
    await shop.agent.get('/metrics').expect(404);
    await shop.app.close();
  });
});

describe('an OTLP endpoint that is down', () => {
  it('keeps serving, drops spans with a counted warning and still closes', async () => {
    const port = await getFreePort();
    const warnings: string[] = [];
    const warn = jest
      .spyOn(Logger.prototype, 'warn')
      .mockImplementation((message: unknown) => void warnings.push(String(message)));
    try {
      const endpoint = `http://127.0.0.1:${port}`;
      const shop = await runShop({
        exporter: { type: 'otlp', endpoint, timeoutMillis: 500, maxQueueSize: 8 },
      });
      for (let i = 0; i < 5; i++) await shop.agent.get(`/orders/${i}`).expect(200);
      const host = shop.app.get<TracerProviderHost>(TRACER_PROVIDER_HOST);
      await shop.close();
      // 5 requests x (HTTP + custom + 4 Redis + pipeline) spans, plus the connection handshake.
      expect(host.dropped?.dropped).toBeGreaterThanOrEqual(35);
      expect(warnings[0]).toMatch(
        new RegExp(`^dropped \\d+ span\\(s\\) for ${endpoint}/v1/traces \\(\\d+ in total\\): `),
      );
    } finally {
      warn.mockRestore();
    }
  });
});

describe('forRootAsync', () => {
  @Injectable()
  class TracingConfig implements TracingOptionsFactory {
    createTracingOptions(): TracingModuleOptions {
      return { exporter: 'memory', serviceName: 'from-class' };
    }
  }

  @Module({ providers: [TracingConfig], exports: [TracingConfig] })
  class ConfigModule {}

  it.each([
    [
      'useFactory',
      TracingModule.forRootAsync({
        imports: [ConfigModule],
        inject: [TracingConfig],
        useFactory: async (config: TracingConfig) => ({
          ...config.createTracingOptions(),
          serviceName: 'from-factory',
        }),
      }),
      'from-factory',
    ],
    ['useClass', TracingModule.forRootAsync({ useClass: TracingConfig }), 'from-class'],
    [
      'useExisting',
      TracingModule.forRootAsync({ imports: [ConfigModule], useExisting: TracingConfig }),
      'from-class',
    ],
  ])('takes its options from %s', async (_form, tracingModule, serviceName) => {
    const clients: Redis[] = [];
    const shop = await startTracedApp(shopMetadata(clients), {}, tracingModule);
    await shop.agent.get('/orders/5').expect(200);
    const spans = shop.spans();
    expect(childrenOf(spans, only(spans, 'order.load'))).toEqual([
      'redis.GET',
      'redis.SET',
      'redis.PIPELINE',
    ]);
    expect(only(spans, 'GET /orders/:id').resource.attributes['service.name']).toBe(serviceName);
    await shop.app.close();
    for (const client of clients) client.disconnect();
  });

  it('fails the start with the name of a bad option from the factory', async () => {
    const compiling = Test.createTestingModule({
      imports: [
        TracingModule.forRootAsync({
          useFactory: () => ({ sampling: { strategy: 'sometimes' } }) as never,
        }),
      ],
    }).compile();
    await expect(compiling).rejects.toThrow(
      'TracingModule: option "sampling.strategy" must be one of "always", "never", "ratio", got "sometimes"',
    );
  });

  it.each([null, undefined])('fails the start when the factory returns %s', async (nothing) => {
    const compiling = Test.createTestingModule({
      imports: [TracingModule.forRootAsync({ useFactory: () => nothing as never })],
    }).compile();
    await expect(compiling).rejects.toThrow(
      `TracingModule: the options factory returned ${String(nothing)}; return an options object ({} for the defaults)`,
    );
  });

  it('shares the service with every module when isGlobal is set', async () => {
    @Injectable()
    class Consumer {
      constructor(@Inject(TRACING_SERVICE) readonly tracing: ITracingService) {}
    }
    @Module({ providers: [Consumer], exports: [Consumer] })
    class FeatureModule {}
    const app = await Test.createTestingModule({
      imports: [
        TracingModule.forRootAsync({ isGlobal: true, useFactory: () => ({ exporter: 'memory' }) }),
        FeatureModule,
      ],
    }).compile();
    await expect(app.get(Consumer).tracing.withSpan('x', () => 1)).resolves.toBe(1);
    await app.close();
  });
});

describe('@Span()', () => {
  @Controller('catalog')
  class CatalogController {
    @Get(':id')
    @Span()
    find(@Param('id') id: string) {
      return { id };
    }

    @Span('catalog.fail', { kind: 'CLIENT' })
    @Get(':id/fail')
    async fail() {
      throw new Error('catalog down');
    }
  }

  it('wraps handlers in a span and keeps their name and route metadata', async () => {
    expect(CatalogController.prototype.find.name).toBe('find');
    const shop = await startTracedApp({ controllers: [CatalogController] });
    await shop.agent.get('/catalog/9').expect(200, { id: '9' });
    await shop.agent.get('/catalog/9/fail').expect(500);
    const spans = shop.spans();
    const find = only(spans, 'CatalogController.find');
    expect(find.kind).toBe(SpanKind.INTERNAL);
    expect(find.status.code).toBe(SpanStatusCode.OK);
    expect(childrenOf(spans, only(spans, 'GET /catalog/:id'))).toEqual(['CatalogController.find']);
    const fail = only(spans, 'catalog.fail');
    expect(fail.kind).toBe(SpanKind.CLIENT);
    expect(fail.status).toEqual({ code: SpanStatusCode.ERROR, message: 'catalog down' });
    expect(childrenOf(spans, only(spans, 'GET /catalog/:id/fail'))).toEqual(['catalog.fail']);
    await shop.app.close();
  });

  it('only calls the method when no TracingModule runs', () => {
    expect(new CatalogController().find('3')).toEqual({ id: '3' });
  });
});

describe('sampling', () => {
  it('records nothing with strategy never, yet context still flows and the app works', async () => {
    const shop = await runShop({ sampling: { strategy: 'never' } });
    await shop.agent.get('/orders/6').expect(200);
    expect(shop.spans()).toEqual([]);
    await shop.close();
  });

  it("follows a caller's sampled traceparent", async () => {
    const shop = await runShop({ sampling: { strategy: 'never' } });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await shop.agent
      .get('/orders/7')
      .set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`)
      .expect(200);
    const http = only(shop.spans(), 'GET /orders/:id');
    expect(http.spanContext().traceId).toBe(traceId);
    expect(http.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(shop.spans().filter((span) => span.name.startsWith('redis.')).length).toBeGreaterThan(0);
    await shop.close();
  });
});
