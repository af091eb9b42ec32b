import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { provideRedis, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import { provideRedisClient } from '../src';
import {
  childrenOf,
  idOf,
  keyPrefix,
  only,
  parentOf,
  startTracedApp,
  traceOf,
  type TracedApp,
} from './support/traced-app.harness';
import { CACHE, OrderController, OrderService, PREFIX } from './support/shop.fixture';

describe('one HTTP request: SERVER -> INTERNAL -> CLIENT spans (ioredis 6)', () => {
  const prefix = keyPrefix();
  let redis: TestRedis;
  let shop: TracedApp;
  let client: Redis;

  beforeAll(async () => {
    redis = await provideRedis();
    shop = await startTracedApp({
      controllers: [OrderController],
      providers: [
        OrderService,
        { provide: PREFIX, useValue: prefix },
        provideRedisClient({
          provide: CACHE,
          name: 'cache',
          useFactory: () => (client = new Redis(redis.url)),
        }),
      ],
    });
  });

  afterAll(async () => {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
    await shop.app.close();
    client.disconnect();
    await redis.stop();
  });

  it('records http.url with every query value redacted', async () => {
    const before = shop.spans().length;
    await shop.agent.get('/orders/8?token=s3cret&page=2&flag').expect(200);
    const http = only(shop.spans().slice(before), 'GET /orders/:id');
    expect(http.attributes['http.url']).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/orders\/8\?token=REDACTED&page=REDACTED&flag$/,
    );
  });

  it('nests the Redis spans under the custom span under the HTTP span, with their attributes', async () => {
    await client.ping();
    const before = shop.spans().length;
    const response = await shop.agent.get('/orders/7').expect(200);
    expect(response.body).toMatchObject({ id: '7', views: expect.any(Number) });
    const spans = shop.spans().slice(before);

    const http = only(spans, 'GET /orders/:id');
    const load = only(spans, 'order.load');
    const pipeline = only(spans, 'redis.PIPELINE');
    expect(http.kind).toBe(SpanKind.SERVER);
    expect(http.attributes).toMatchObject({
      'http.method': 'GET',
      'http.route': '/orders/:id',
      'http.status_code': 200,
      'http.url': expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/orders\/7$/),
    });
    expect(parentOf(http)).toBeUndefined();
    expect(childrenOf(spans, http)).toEqual(['order.load']);
    expect(load.kind).toBe(SpanKind.INTERNAL);
    expect(load.attributes).toEqual({ 'order.id': '7' });
    expect(childrenOf(spans, load)).toEqual(['redis.GET', 'redis.SET', 'redis.PIPELINE']);
    expect(childrenOf(spans, pipeline)).toEqual(['redis.INCR', 'redis.EXPIRE']);
    expect(new Set(spans.map(traceOf))).toEqual(new Set([traceOf(http)]));

    const key = `${prefix}:order:7`;
    const get = only(spans, 'redis.GET');
    expect(get.kind).toBe(SpanKind.CLIENT);
    expect(get.attributes).toEqual({
      'db.system': 'redis',
      'db.operation': 'GET',
      'db.statement': `GET ${key}`,
      'db.redis.key': key,
      'db.redis.database_index': 0,
      'redisx.client': 'cache',
      'redisx.duration_ms': expect.any(Number),
      'server.address': redis.host,
      'server.port': redis.port,
    });
    expect(get.attributes['redisx.duration_ms']).toBeGreaterThan(0);
    expect(get.status.code).toBe(SpanStatusCode.UNSET);
    expect(only(spans, 'redis.SET').attributes['db.statement']).toBe(`SET ${key} ?`);
    expect(only(spans, 'redis.EXPIRE').attributes['db.statement']).toBe(`EXPIRE ${key}:views ?`);
    expect(pipeline.attributes).toMatchObject({
      'db.operation': 'PIPELINE',
      'db.operation.batch.size': 2,
      'redisx.client': 'cache',
    });
    for (const span of spans) expect(span.ended).toBe(true);
    expect(parentOf(pipeline)).toBe(idOf(load));
  });

  it('marks a Redis error reply on the command span, the custom span and the 500 HTTP span', async () => {
    const before = shop.spans().length;
    await shop.agent.get('/orders/8/broken').expect(500);
    const spans = shop.spans().slice(before);

    const http = only(spans, 'GET /orders/:id/broken');
    const failing = only(spans, 'redis.INCR');
    const custom = only(spans, 'order.break');
    expect(parentOf(failing)).toBe(idOf(custom));
    expect(failing.status.code).toBe(SpanStatusCode.ERROR);
    expect(failing.status.message).toMatch(/^WRONGTYPE/);
    expect(failing.attributes['error.type']).toBe('WRONGTYPE');
    expect(failing.events.map((event) => event.attributes?.['exception.type'])).toEqual([
      'ReplyError',
    ]);
    expect(custom.status.code).toBe(SpanStatusCode.ERROR);
    expect(http.attributes['http.status_code']).toBe(500);
    expect(http.status.code).toBe(SpanStatusCode.ERROR);
    expect(only(spans, 'redis.HSET').status.code).toBe(SpanStatusCode.UNSET);
  });
});
