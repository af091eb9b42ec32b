import { Test, type TestingModule } from '@nestjs/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { getFreePort, provideRedis, waitFor, type TestRedis } from '@redisx/testing';
import Redis6 from 'ioredis';
import Redis5 from 'ioredis-v5';
import {
  registerRedisClient,
  TRACING_MEMORY_EXPORTER,
  TRACING_SERVICE,
  TracingModule,
  type ITracingService,
} from '../src';
import { childrenOf, idOf, keyPrefix, only, parentOf } from './support/traced-app.harness';

type AnyRedis = InstanceType<typeof Redis6>;
type RedisClass = new (...args: never[]) => AnyRedis;

describe.each([
  ['ioredis 6', Redis6 as unknown as RedisClass],
  ['ioredis 5', Redis5 as unknown as RedisClass],
])('Redis command spans with %s', (_driver, RedisClient) => {
  const prefix = keyPrefix();
  const user = `${prefix.replace(/[^a-z0-9]/gi, '')}-user`;
  let redis: TestRedis;
  let app: TestingModule;
  let tracing: ITracingService;
  let exporter: InMemorySpanExporter;
  let cache: AnyRedis;
  const clients: AnyRedis[] = [];
  const connect = (options: object) => {
    const client = new RedisClient({ host: redis.host, port: redis.port, ...options } as never);
    clients.push(client);
    return client;
  };
  /** Spans finished while `work` ran. */
  const during = async (work: () => Promise<unknown>): Promise<ReadableSpan[]> => {
    const before = exporter.getFinishedSpans().length;
    await work();
    return exporter.getFinishedSpans().slice(before);
  };

  beforeAll(async () => {
    redis = await provideRedis();
    app = await Test.createTestingModule({
      imports: [
        TracingModule.forRoot({
          exporter: 'memory',
          spans: {
            includeArgs: true,
            includeResult: true,
            maxArgLength: 24,
            excludeCommands: ['ping', 'Echo'],
          },
        }),
      ],
    }).compile();
    await app.init();
    tracing = app.get(TRACING_SERVICE);
    exporter = app.get(TRACING_MEMORY_EXPORTER);
    cache = registerRedisClient(connect({}), 'cache');
    await cache.call('ACL', 'SETUSER', user, 'on', '>s3cret-pw', '~*', '&*', '+@all');
  });

  afterAll(async () => {
    const keys = await cache.keys(`${prefix}:*`);
    if (keys.length > 0) await cache.del(...keys);
    await cache.call('ACL', 'DELUSER', user);
    for (const client of clients) client.disconnect();
    await app.close();
    await redis.stop();
  });

  it('makes one span per command, child of the span current when the command was issued', async () => {
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        await cache.set(`${prefix}:a`, 'value-a');
        await Promise.all([cache.get(`${prefix}:a`), cache.mget(`${prefix}:a`, `${prefix}:b`)]);
        await new Promise((resolve) => setTimeout(resolve, 1));
        await cache.hset(`${prefix}:h`, 'field', 'secret-value');
      }),
    );
    const job = only(spans, 'job');
    expect(childrenOf(spans, job)).toEqual(['redis.SET', 'redis.GET', 'redis.MGET', 'redis.HSET']);
    expect(spans).toHaveLength(5);
    const mget = only(spans, 'redis.MGET');
    expect(mget.attributes['db.statement']).toBe(`MGET ${prefix}:a ${prefix}:b`);
    expect(mget.attributes['db.redis.key']).toBeUndefined();
    expect(only(spans, 'redis.HSET').attributes['db.statement']).toBe(`HSET ${prefix}:h ? ?`);
  });

  it('truncates args and results to maxArgLength and skips excluded commands in any case', async () => {
    const long = 'x'.repeat(200);
    const spans = await during(async () => {
      await cache.set(`${prefix}:long`, long);
      await cache.get(`${prefix}:long`);
      await cache.ping();
      await cache.echo('hello');
    });
    expect(spans.map((span) => span.name)).toEqual(['redis.SET', 'redis.GET']);
    const [set, get] = spans;
    expect(set.attributes['db.statement.args']).toBe(`["${prefix}:long"`.slice(0, 21) + '...');
    expect(String(set.attributes['db.statement.args'])).toHaveLength(24);
    expect(set.attributes['db.statement.result']).toBe('OK');
    expect(get.attributes['db.statement.result']).toBe('x'.repeat(21) + '...');
  });

  it('never records credentials, not even with includeArgs', async () => {
    const spans = await during(async () => {
      const client = connect({ username: user, password: 's3cret-pw', connectionName: 'authed' });
      await client.get(`${prefix}:a`);
      client.disconnect();
    });
    const login = spans.find((span) => ['redis.AUTH', 'redis.HELLO'].includes(span.name));
    expect(login).toBeDefined();
    expect(login?.attributes['db.statement']).toMatch(/^(AUTH \? \?|HELLO \?( \?)*)$/);
    expect(login?.attributes['db.statement.args']).not.toContain(user);
    for (const span of spans) {
      expect(JSON.stringify(span.attributes)).not.toContain('s3cret-pw');
    }
    expect(only(spans, 'redis.GET').attributes['redisx.client']).toBe('authed');
  });

  it('records an error reply and rejects with the same error object', async () => {
    await cache.hset(`${prefix}:wrong`, 'f', 'v');
    let thrown: unknown;
    const spans = await during(() =>
      cache.incr(`${prefix}:wrong`).catch((error: unknown) => (thrown = error)),
    );
    const incr = only(spans, 'redis.INCR');
    expect(thrown).toBeInstanceOf(Error);
    expect(incr.status).toEqual({ code: SpanStatusCode.ERROR, message: (thrown as Error).message });
    expect(incr.events[0].attributes?.['exception.message']).toBe((thrown as Error).message);
  });

  it('records a connection error as an error span', async () => {
    const port = await getFreePort();
    let thrown: unknown;
    const spans = await during(async () => {
      const down = connect({
        port,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        lazyConnect: true,
      });
      await down.get(`${prefix}:a`).catch((error: unknown) => (thrown = error));
    });
    const get = only(spans, 'redis.GET');
    expect(thrown).toBeInstanceOf(Error);
    expect(get.status.code).toBe(SpanStatusCode.ERROR);
    expect(get.status.message).toBe((thrown as Error).message);
    expect(get.attributes['server.port']).toBe(port);
  });

  it('traces a command issued before the connection is up once, under the caller', async () => {
    const spans = await during(async () => {
      const lazy = connect({ lazyConnect: true });
      await tracing.withSpan('early', () => lazy.get(`${prefix}:a`));
      lazy.disconnect();
    });
    const early = only(spans, 'early');
    const get = only(spans, 'redis.GET');
    expect(parentOf(get)).toBe(idOf(early));
  });

  it('puts pipelined commands under redis.PIPELINE and transactions under redis.MULTI', async () => {
    const spans = await during(() =>
      tracing.withSpan('batch', async () => {
        await cache.pipeline().set(`${prefix}:p`, '1').incr(`${prefix}:p`).exec();
        await cache.multi().set(`${prefix}:m`, '1').incr(`${prefix}:m`).get(`${prefix}:m`).exec();
      }),
    );
    const batch = only(spans, 'batch');
    expect(childrenOf(spans, batch)).toEqual(['redis.PIPELINE', 'redis.MULTI']);
    expect(childrenOf(spans, only(spans, 'redis.PIPELINE'))).toEqual(['redis.SET', 'redis.INCR']);
    // As with node-redis, the transaction's span holds its commands, not the MULTI and EXEC framing them.
    const [multi] = spans.filter((span) => span.attributes['db.operation.batch.size'] === 3);
    expect(multi.name).toBe('redis.MULTI');
    expect(parentOf(multi)).toBe(idOf(batch));
    expect(multi.attributes['db.operation.batch.size']).toBe(3);
    const inMulti = spans.filter((span) => parentOf(span) === idOf(multi)).map((span) => span.name);
    expect(inMulti).toEqual(['redis.SET', 'redis.INCR', 'redis.GET']);
    expect(spans.filter((span) => span.name === 'redis.MULTI')).toHaveLength(1);
    expect(spans.filter((span) => span.name === 'redis.EXEC')).toHaveLength(0);
    expect(spans.filter((span) => span.name.startsWith('redis.')).every((span) => span.ended)).toBe(
      true,
    );
  });

  it('names runtime clients after their parent: duplicates and Pub/Sub subscribers', async () => {
    const channel = `${prefix}:events`;
    const subscriber = cache.duplicate();
    const other = cache.duplicate();
    clients.push(subscriber, other);
    const received = new Promise<string>((resolve) =>
      subscriber.once('message', (_c, message: string) => resolve(message)),
    );
    const spans = await during(async () => {
      await subscriber.subscribe(channel);
      await other.get(`${prefix}:a`);
      await waitFor('the subscription', async () => (await cache.publish(channel, 'hello')) === 1);
      expect(await received).toBe('hello');
    });
    const subscribe = only(spans, 'redis.SUBSCRIBE');
    expect(subscribe.attributes['redisx.client']).toBe('cache:subscriber');
    expect(subscribe.attributes['db.statement']).toBe(`SUBSCRIBE ${channel}`);
    const get = spans.find(
      (span) => span.name === 'redis.GET' && span.attributes['redisx.client'] === 'cache:duplicate',
    );
    expect(get).toBeDefined();
    const publish = spans.find((span) => span.name === 'redis.PUBLISH');
    expect(publish?.attributes).toMatchObject({
      'redisx.client': 'cache',
      'db.statement': `PUBLISH ${channel} ?`,
    });
  });

  it('calls unnamed clients "default"', async () => {
    const spans = await during(async () => {
      const plain = connect({});
      await plain.get(`${prefix}:a`);
    });
    expect(only(spans, 'redis.GET').attributes['redisx.client']).toBe('default');
  });
});
