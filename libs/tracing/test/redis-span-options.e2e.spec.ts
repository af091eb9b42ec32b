import { Test, type TestingModule } from '@nestjs/testing';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { provideRedis, waitFor, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import { createClient, type RedisClientType } from 'redis';
import {
  registerRedisClient,
  TRACING_MEMORY_EXPORTER,
  TRACING_METRICS,
  TRACING_SERVICE,
  TracingModule,
  type ITracingService,
  type RedisCommandMetrics,
  type RedisResponseInfo,
  type TracingModuleOptions,
} from '../src';
import { childrenOf, idOf, keyPrefix, only, parentOf } from './support/traced-app.harness';

/** A client of one driver, connected to `url`, registered under `name`, with the calls used here. */
interface DriverClient {
  get(key: string): Promise<unknown>;
  set(key: string, value: string): Promise<unknown>;
  close(): Promise<void>;
}

const drivers: [string, (url: string, name: string) => Promise<DriverClient>][] = [
  [
    'ioredis',
    async (url, name) => {
      const client = registerRedisClient(new Redis(url, { lazyConnect: true }), name);
      await client.connect();
      return {
        get: (key) => client.get(key),
        set: (key, value) => client.set(key, value),
        close: async () => void client.disconnect(),
      };
    },
  ],
  [
    'node-redis',
    async (url, name) => {
      const client = registerRedisClient(createClient({ url }) as RedisClientType, name);
      await client.connect();
      return {
        get: (key) => client.get(key),
        set: (key, value) => client.set(key, value),
        close: async () => client.destroy(),
      };
    },
  ],
];

/** A tracing module with `options`, its memory exporter, service and metrics. */
async function tracedModule(options: TracingModuleOptions) {
  const app: TestingModule = await Test.createTestingModule({
    imports: [TracingModule.forRoot({ exporter: 'memory', ...options })],
  }).compile();
  await app.init();
  const exporter = app.get<InMemorySpanExporter>(TRACING_MEMORY_EXPORTER);
  return {
    app,
    tracing: app.get<ITracingService>(TRACING_SERVICE),
    metrics: app.get<RedisCommandMetrics>(TRACING_METRICS),
    spans: () => exporter.getFinishedSpans(),
    during: async (work: () => Promise<unknown>): Promise<ReadableSpan[]> => {
      const before = exporter.getFinishedSpans().length;
      await work();
      return exporter.getFinishedSpans().slice(before);
    },
  };
}

const prefix = keyPrefix();
let redis: TestRedis;
beforeAll(async () => (redis = await provideRedis()));
afterAll(() => redis.stop());

describe('the commands ioredis sends on connecting', () => {
  it('are children of one redis.connect span per connection, not root traces of their own', async () => {
    const traced = await tracedModule({ metrics: { prefix: 'connect_redis_' } });
    const url = `redis://${redis.host}:${redis.port}/2`;
    const client = registerRedisClient(
      new Redis(url, { lazyConnect: true, connectionName: 'orders-cache' }),
      'orders',
    );
    try {
      await client.connect();
      await client.get(`${prefix}:absent`);
      await waitFor('the connection span', () =>
        traced.spans().some((span) => span.name === 'redis.connect'),
      );
      const spans = traced.spans();
      const connect = only(spans, 'redis.connect');
      expect(parentOf(connect)).toBeUndefined();
      expect(connect.attributes).toMatchObject({
        'db.system': 'redis',
        'db.operation': 'CONNECT',
        'redisx.client': 'orders',
        'server.address': redis.host,
        'server.port': redis.port,
        'db.redis.database_index': 2,
      });
      const handshake = childrenOf(spans, connect);
      // SELECT for the database, CLIENT SETNAME and the two SETINFO, INFO of the ready check.
      expect(handshake).toEqual(
        expect.arrayContaining(['redis.SELECT', 'redis.CLIENT', 'redis.INFO']),
      );
      expect(handshake.filter((name) => name === 'redis.CLIENT')).toHaveLength(3);
      // Nothing but the connection and the application's own GET is a root.
      const roots = spans.filter((span) => parentOf(span) === undefined).map((span) => span.name);
      expect(roots.sort()).toEqual(['redis.GET', 'redis.connect']);
      // Still real commands: the metrics count them.
      expect(await traced.metrics.text()).toMatch(
        /^connect_redis_commands_total\{[^}]*command="SELECT"[^}]*\} 1$/m,
      );
    } finally {
      client.disconnect();
      await traced.app.close();
    }
  });

  it('get a new redis.connect span, outside any request, when the client reconnects', async () => {
    const traced = await tracedModule({});
    const client = registerRedisClient(
      new Redis(redis.url, { lazyConnect: true, retryStrategy: () => 10 }),
      'reconnecting',
    );
    try {
      await traced.tracing.withSpan('request', () => client.connect());
      const request = only(traced.spans(), 'request');
      expect(parentOf(only(traced.spans(), 'redis.connect'))).toBe(idOf(request));
      const first = only(traced.spans(), 'redis.connect');
      client.stream.destroy();
      await waitFor(
        'the second connection',
        () => traced.spans().filter((span) => span.name === 'redis.connect').length >= 2,
      );
      const again = traced.spans().filter((s) => s.name === 'redis.connect' && s !== first);
      expect(parentOf(again[0])).toBeUndefined();
      expect(childrenOf(traced.spans(), again[0])).toContain('redis.INFO');
    } finally {
      client.disconnect();
      await traced.app.close();
    }
  });

  it('are a failed redis.connect span when the server refuses the credentials', async () => {
    const traced = await tracedModule({});
    const client = registerRedisClient(
      new Redis({
        host: redis.host,
        port: redis.port,
        username: 'redisx-nobody',
        password: 'wrong',
        lazyConnect: true,
        retryStrategy: () => null,
      }),
      'refused',
    );
    client.on('error', () => undefined);
    try {
      await expect(client.connect()).rejects.toThrow();
      await waitFor('the connection span', () =>
        traced.spans().some((span) => span.name === 'redis.connect'),
      );
      const connect = only(traced.spans(), 'redis.connect');
      expect(connect.status.code).toBe(2);
      // ioredis 6 authenticates in HELLO; the credentials stay masked.
      const hello = only(traced.spans(), 'redis.HELLO');
      expect(parentOf(hello)).toBe(idOf(connect));
      expect(String(hello.attributes['db.statement'])).not.toContain('wrong');
      expect(hello.status.code).toBe(2);
    } finally {
      client.disconnect();
      await traced.app.close();
    }
  });

  it('get no span at all with spans.connectionCommands: false', async () => {
    const traced = await tracedModule({ spans: { connectionCommands: false } });
    const client = await drivers[0][1](redis.url, 'quiet');
    try {
      await client.get(`${prefix}:absent`);
      const names = traced.spans().map((span) => span.name);
      expect(names).toEqual(['redis.GET']);
    } finally {
      await client.close();
      await traced.app.close();
    }
  });
});

describe.each(drivers)('span options with %s', (_driver, connect) => {
  it('spans.requireParentSpan: commands outside any span get none', async () => {
    const traced = await tracedModule({ spans: { requireParentSpan: true } });
    const client = await connect(redis.url, 'nested-only');
    try {
      const spans = await traced.during(async () => {
        await client.get(`${prefix}:outside`);
        await traced.tracing.withSpan('job', () => client.get(`${prefix}:inside`));
      });
      expect(spans.map((span) => span.name)).toEqual(['redis.GET', 'job']);
      expect(parentOf(only(spans, 'redis.GET'))).toBe(idOf(only(spans, 'job')));
      // No connection span either: nothing was active when the client connected.
      expect(traced.spans().some((span) => span.name === 'redis.connect')).toBe(false);
    } finally {
      await client.close();
      await traced.app.close();
    }
  });

  it('spans.requestHook and responseHook see each command, its arguments and its reply', async () => {
    const responses: RedisResponseInfo[] = [];
    const traced = await tracedModule({
      spans: {
        connectionCommands: false,
        requestHook: (span, info) =>
          span.setAttribute('app.request', `${info.client} ${info.command} ${info.args.length}`),
        responseHook: (span, info) => {
          responses.push(info);
          span.setAttribute('app.reply', String(info.result));
        },
      },
    });
    const client = await connect(redis.url, 'hooked');
    try {
      const spans = await traced.during(async () => {
        await client.set(`${prefix}:hooked`, 'v1');
        await client.get(`${prefix}:hooked`);
      });
      expect(only(spans, 'redis.SET').attributes).toMatchObject({
        'app.request': 'hooked SET 2',
        'app.reply': 'OK',
      });
      expect(only(spans, 'redis.GET').attributes['app.reply']).toBe('v1');
      expect(responses.map((info) => [info.command, info.client, info.result])).toEqual([
        ['SET', 'hooked', 'OK'],
        ['GET', 'hooked', 'v1'],
      ]);
    } finally {
      await client.close();
      await traced.app.close();
    }
  });

  it('a hook that throws changes nothing for the caller', async () => {
    const traced = await tracedModule({
      spans: {
        requestHook: () => {
          throw new Error('hook bug');
        },
        responseHook: () => {
          throw new Error('hook bug');
        },
        statementSerializer: () => {
          throw new Error('serializer bug');
        },
      },
    });
    const client = await connect(redis.url, 'broken-hooks');
    try {
      const spans = await traced.during(async () => {
        await client.set(`${prefix}:broken`, 'v');
        expect(await client.get(`${prefix}:broken`)).toBe('v');
      });
      // The default statement stands in for the serializer that threw.
      expect(only(spans, 'redis.SET').attributes['db.statement']).toBe(`SET ${prefix}:broken ?`);
      expect(only(spans, 'redis.GET').ended).toBe(true);
    } finally {
      await client.close();
      await traced.app.close();
    }
  });

  it('spans.statementSerializer writes db.statement', async () => {
    const traced = await tracedModule({
      spans: {
        statementSerializer: (command, args) => `${command.toLowerCase()} <${args.length}>`,
      },
    });
    const client = await connect(redis.url, 'serialized');
    try {
      const spans = await traced.during(() => client.set(`${prefix}:s`, 'secret'));
      expect(only(spans, 'redis.SET').attributes).toMatchObject({
        'db.statement': 'set <2>',
        'db.redis.key': `${prefix}:s`,
      });
    } finally {
      await client.close();
      await traced.app.close();
    }
  });

  it.each([
    [
      'database',
      {
        'db.system.name': 'redis',
        'db.operation.name': 'GET',
        'db.query.text': `GET ${prefix}:semconv`,
        'db.namespace': '0',
      },
      ['db.system', 'db.operation', 'db.statement', 'db.redis.database_index'],
    ],
    [
      'database/dup',
      {
        'db.system.name': 'redis',
        'db.query.text': `GET ${prefix}:semconv`,
        'db.system': 'redis',
        'db.statement': `GET ${prefix}:semconv`,
        'db.redis.database_index': 0,
      },
      [],
    ],
  ])(
    'OTEL_SEMCONV_STABILITY_OPT_IN=%s names the attributes as the stable conventions',
    async (optIn, present, absent) => {
      const saved = process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
      process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = optIn;
      const traced = await tracedModule({ spans: { connectionCommands: false } });
      if (saved === undefined) delete process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
      else process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = saved;
      const client = await connect(redis.url, 'conventions');
      try {
        const spans = await traced.during(() => client.get(`${prefix}:semconv`));
        const attributes = only(spans, 'redis.GET').attributes;
        expect(attributes).toMatchObject(present);
        for (const name of absent) expect(attributes).not.toHaveProperty(name);
      } finally {
        await client.close();
        await traced.app.close();
      }
    },
  );
});

describe('node-redis subscribe with spans.includeResult', () => {
  it('records no result rather than "undefined"', async () => {
    const traced = await tracedModule({ spans: { includeResult: true } });
    const client = registerRedisClient(
      createClient({ url: redis.url }) as RedisClientType,
      'listener',
    );
    await client.connect();
    try {
      const spans = await traced.during(() => client.subscribe(`${prefix}:ch`, () => undefined));
      expect(only(spans, 'redis.SUBSCRIBE').attributes).not.toHaveProperty('db.statement.result');
    } finally {
      client.destroy();
      await traced.app.close();
    }
  });
});
