import { provideRedis, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import { provideRedisClient } from '../src';
import {
  idOf,
  keyPrefix,
  parentOf,
  startTracedApp,
  traceOf,
  type TracedApp,
} from './support/traced-app.harness';
import { CACHE, OrderController, OrderService, PREFIX } from './support/shop.fixture';

describe('1,000 concurrent requests', () => {
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
    await shop.app.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    const keys = await client.keys(`${prefix}:*`);
    for (let i = 0; i < keys.length; i += 500) await client.del(...keys.slice(i, i + 500));
    await shop.app.close();
    client.disconnect();
    await redis.stop();
  });

  it('attaches every span to the trace of the request that caused it', async () => {
    const url = await shop.app.getUrl();
    const ids = Array.from({ length: 1000 }, (_, i) => String(i));
    const responses = await Promise.all(ids.map((id) => fetch(`${url}/orders/${id}`)));
    expect(responses.map((response) => response.status)).toEqual(ids.map(() => 200));
    await Promise.all(responses.map((response) => response.arrayBuffer()));

    const spans = shop.spans();
    const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
    const requests = spans.filter((span) => span.name === 'GET /orders/:id');
    expect(requests).toHaveLength(1000);
    const traceOfOrder = new Map(
      requests.map((span) => [String(span.attributes['http.url']).split('/').pop(), traceOf(span)]),
    );
    expect(new Set(traceOfOrder.values()).size).toBe(1000);

    const redisSpans = spans.filter(
      (span) => span.name.startsWith('redis.') && span.name !== 'redis.PIPELINE',
    );
    const isOrderCommand = (statement: unknown) => String(statement).includes(`${prefix}:order:`);
    const commands = redisSpans.filter((span) => isOrderCommand(span.attributes['db.statement']));
    expect(commands).toHaveLength(4000);
    // The connection handshake (HELLO, CLIENT SETINFO, INFO) ran when the client was created,
    // under the connection's own root span and in no request's trace.
    const connect = spans.filter((span) => span.name === 'redis.connect');
    expect(connect).toHaveLength(1);
    expect(parentOf(connect[0])).toBeUndefined();
    const handshake = redisSpans.filter(
      (span) => span.name !== 'redis.connect' && !isOrderCommand(span.attributes['db.statement']),
    );
    expect(handshake.length).toBeGreaterThan(0);
    for (const span of handshake) expect(parentOf(span)).toBe(idOf(connect[0]));
    for (const command of commands) {
      const order = /:order:(\d+)/.exec(String(command.attributes['db.statement']))?.[1];
      expect(traceOf(command)).toBe(traceOfOrder.get(order));
      // Every command's ancestors lead to its own request's SERVER span.
      let ancestor = byId.get(parentOf(command) ?? '');
      while (ancestor && parentOf(ancestor)) ancestor = byId.get(parentOf(ancestor) ?? '');
      expect(ancestor?.name).toBe('GET /orders/:id');
      expect(String(ancestor?.attributes['http.url'])).toMatch(new RegExp(`/orders/${order}$`));
    }
  });
});
