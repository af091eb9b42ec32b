import { Controller, Get, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { RedisInstrumentation } from '@opentelemetry/instrumentation-redis';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { provideRedis, type TestRedis } from '@redisx/testing';
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
  type TracingModuleOptions,
} from '../src';
import { applyInstrumentation } from './support/other-instrumentation';
import { keyPrefix, only, parentOf, idOf, startTracedApp } from './support/traced-app.harness';

/** The library that made a span: this module's tracer or an OpenTelemetry instrumentation. */
const madeBy = (span: ReadableSpan) => span.instrumentationScope.name;
const OURS = '@redisx/tracing';

const prefix = keyPrefix();
let redis: TestRedis;
let warn: jest.SpyInstance;
beforeAll(async () => (redis = await provideRedis()));
afterAll(() => redis.stop());
beforeEach(() => (warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined)));
afterEach(() => warn.mockRestore());

async function tracedModule(options: TracingModuleOptions) {
  const app = await Test.createTestingModule({
    imports: [
      TracingModule.forRoot({
        exporter: 'memory',
        metrics: { prefix: 'coexist_redis_' },
        spans: { connectionCommands: false },
        ...options,
      }),
    ],
  }).compile();
  await app.init();
  return {
    app,
    tracing: app.get<ITracingService>(TRACING_SERVICE),
    metrics: app.get<RedisCommandMetrics>(TRACING_METRICS),
    spans: () => app.get<InMemorySpanExporter>(TRACING_MEMORY_EXPORTER).getFinishedSpans(),
  };
}

const warnings = () => warn.mock.calls.map(([message]) => String(message));

describe.each([
  {
    driver: 'ioredis',
    instrumentation: '@opentelemetry/instrumentation-ioredis',
    instrument: () =>
      applyInstrumentation(new IORedisInstrumentation({ enabled: false }), {
        ioredis: { version: '6.0.0' },
      }),
    connect: async () => {
      const client = registerRedisClient(new Redis(redis.url, { lazyConnect: true }), 'shared');
      await client.connect();
      return { get: (key: string) => client.get(key), close: () => client.disconnect() };
    },
  },
  {
    driver: 'node-redis',
    instrumentation: '@opentelemetry/instrumentation-redis',
    instrument: () =>
      applyInstrumentation(new RedisInstrumentation({ enabled: false }), {
        '@redis/client': {
          version: '5.12.1',
          files: [
            '@redis/client/dist/lib/client/index.js',
            '@redis/client/dist/lib/client/multi-command.js',
          ],
        },
      }),
    connect: async () => {
      const client = registerRedisClient(
        createClient({ url: redis.url }) as RedisClientType,
        'shared',
      );
      await client.connect();
      return { get: (key: string) => client.get(key), close: () => client.destroy() };
    },
  },
])('with $instrumentation active too', ({ driver, instrumentation, instrument, connect }) => {
  let undo: () => void;
  beforeEach(() => (undo = instrument()));
  afterEach(() => undo());

  it(`defers: one ${driver} span per command, its own, a warning, and the metrics still count`, async () => {
    const traced = await tracedModule({});
    const client = await connect();
    try {
      await traced.tracing.withSpan('job', () => client.get(`${prefix}:deferred`));
      const gets = traced.spans().filter((span) => /get/i.test(span.name) && span.name !== 'job');
      expect(gets).toHaveLength(1);
      expect(madeBy(gets[0])).not.toBe(OURS);
      expect(parentOf(gets[0])).toBe(idOf(only(traced.spans(), 'job')));
      expect(warnings()).toContainEqual(
        expect.stringContaining(`${instrumentation} is active: ${driver} is traced by it`),
      );
      expect(await traced.metrics.text()).toMatch(
        /^coexist_redis_commands_total\{[^}]*command="GET"[^}]*\} 1$/m,
      );
    } finally {
      client.close();
      await traced.app.close();
    }
  });

  it(`replaces with otherInstrumentations: 'replace': one ${driver} span per command, ours`, async () => {
    const traced = await tracedModule({ otherInstrumentations: 'replace' });
    const client = await connect();
    try {
      await traced.tracing.withSpan('job', () => client.get(`${prefix}:replaced`));
      const gets = traced.spans().filter((span) => /get/i.test(span.name) && span.name !== 'job');
      expect(gets.map((span) => [span.name, madeBy(span)])).toEqual([['redis.GET', OURS]]);
      expect(warnings()).toContainEqual(
        expect.stringContaining(
          `${instrumentation} is active: its ${driver} wrappers were removed`,
        ),
      );
    } finally {
      client.close();
      await traced.app.close();
    }
  });
});

@Controller('ping')
class PingController {
  @Get()
  ping() {
    return { ok: true };
  }
}

describe('with @opentelemetry/instrumentation-http active too', () => {
  let undo: () => void;
  beforeEach(
    () =>
      (undo = applyInstrumentation(new HttpInstrumentation({ enabled: false }), {
        http: { version: process.versions.node },
      })),
  );
  afterEach(() => undo());

  it.each([
    ['defer', 'is active: incoming HTTP requests is traced by it', false],
    ['replace', 'its incoming HTTP requests wrappers were removed', true],
  ] as const)(
    'otherInstrumentations %s: one SERVER span per request',
    async (mode, warning, ours) => {
      const app = await startTracedApp(
        { controllers: [PingController] },
        { otherInstrumentations: mode },
      );
      try {
        await app.agent.get('/ping').expect(200);
        const servers = app.spans().filter((span) => span.kind === 1);
        expect(servers).toHaveLength(1);
        expect(madeBy(servers[0]) === OURS).toBe(ours);
        expect(warnings()).toContainEqual(expect.stringContaining(warning));
      } finally {
        await app.app.close();
      }
    },
  );
});
