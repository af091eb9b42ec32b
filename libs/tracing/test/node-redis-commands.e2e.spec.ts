import { Test, type TestingModule } from '@nestjs/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { provideRedis, waitFor, type TestRedis } from '@redisx/testing';
import { createClient, type RedisClientType } from 'redis';
import {
  registerRedisClient,
  TRACING_MEMORY_EXPORTER,
  TRACING_SERVICE,
  TracingModule,
  type ITracingService,
} from '../src';
import { childrenOf, idOf, keyPrefix, only, parentOf } from './support/traced-app.harness';

describe('Redis command spans with node-redis 5', () => {
  const prefix = keyPrefix();
  let redis: TestRedis;
  let app: TestingModule;
  let tracing: ITracingService;
  let exporter: InMemorySpanExporter;
  let cache: RedisClientType;
  const clients: RedisClientType[] = [];
  const during = async (work: () => Promise<unknown>): Promise<ReadableSpan[]> => {
    const before = exporter.getFinishedSpans().length;
    await work();
    return exporter.getFinishedSpans().slice(before);
  };

  beforeAll(async () => {
    redis = await provideRedis();
    app = await Test.createTestingModule({
      imports: [
        TracingModule.forRoot({ exporter: 'memory', spans: { excludeCommands: ['ping'] } }),
      ],
    }).compile();
    await app.init();
    tracing = app.get(TRACING_SERVICE);
    exporter = app.get(TRACING_MEMORY_EXPORTER);
    cache = registerRedisClient(createClient({ url: redis.url }) as RedisClientType, 'sessions');
    await cache.connect();
  });

  afterAll(async () => {
    const keys = await cache.keys(`${prefix}:*`);
    if (keys.length > 0) await cache.del(keys);
    for (const client of clients) client.destroy();
    cache.destroy();
    await app.close();
    await redis.stop();
  });

  it('makes one CLIENT span per command under the current span, with statement and key', async () => {
    const key = `${prefix}:s`;
    const spans = await during(() =>
      tracing.withSpan('login', async () => {
        await cache.set(key, 'token');
        await cache.get(key);
        await cache.ping();
      }),
    );
    const login = only(spans, 'login');
    expect(childrenOf(spans, login)).toEqual(['redis.SET', 'redis.GET']);
    expect(only(spans, 'redis.SET').attributes).toEqual({
      'db.system': 'redis',
      'db.operation': 'SET',
      'db.statement': `SET ${key} ?`,
      'db.redis.key': key,
      'db.redis.database_index': 0,
      'redisx.client': 'sessions',
      'redisx.duration_ms': expect.any(Number),
      'server.address': redis.host,
      'server.port': redis.port,
    });
  });

  it('records an error reply and rejects with the same error object', async () => {
    const key = `${prefix}:h`;
    await cache.hSet(key, 'f', 'v');
    let thrown: unknown;
    const spans = await during(() => cache.incr(key).catch((error: unknown) => (thrown = error)));
    const incr = only(spans, 'redis.INCR');
    expect(incr.status).toEqual({ code: SpanStatusCode.ERROR, message: (thrown as Error).message });
    expect(incr.attributes['error.type']).toBe('WRONGTYPE');
  });

  it('puts MULTI and pipeline commands under one batch span each', async () => {
    const key = `${prefix}:m`;
    const spans = await during(() =>
      tracing.withSpan('batch', async () => {
        await cache.multi().set(key, '1').incr(key).exec();
        await cache.multi().get(key).incr(key).execAsPipeline();
      }),
    );
    const batch = only(spans, 'batch');
    expect(childrenOf(spans, batch)).toEqual(['redis.MULTI', 'redis.PIPELINE']);
    expect(childrenOf(spans, only(spans, 'redis.MULTI'))).toEqual(['redis.SET', 'redis.INCR']);
    expect(childrenOf(spans, only(spans, 'redis.PIPELINE'))).toEqual(['redis.GET', 'redis.INCR']);
  });

  it('names the duplicate used for Pub/Sub "<name>:subscriber"', async () => {
    const channel = `${prefix}:events`;
    const subscriber = cache.duplicate() as RedisClientType;
    clients.push(subscriber);
    await subscriber.connect();
    let received: string | undefined;
    const spans = await during(async () => {
      await tracing.withSpan('listen', () =>
        subscriber.subscribe(channel, (message) => (received = message)),
      );
      await waitFor('the subscription', async () => (await cache.publish(channel, 'hi')) === 1);
      await waitFor('the message', () => received === 'hi');
    });
    const subscribe = only(spans, 'redis.SUBSCRIBE');
    expect(subscribe.attributes).toMatchObject({
      'redisx.client': 'sessions:subscriber',
      'db.statement': `SUBSCRIBE ${channel}`,
    });
    expect(parentOf(subscribe)).toBe(idOf(only(spans, 'listen')));
  });
});
