import { Test, type TestingModule } from '@nestjs/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { provideRedis, waitFor, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import Redis5 from 'ioredis-v5';
import {
  registerRedisClient,
  TRACING_MEMORY_EXPORTER,
  TRACING_METRICS,
  TracingModule,
  type RedisCommandMetrics,
} from '../src';

/**
 * What the driver sends on connecting and ignores the answer to: `CLIENT SETINFO` is refused by
 * servers before Redis 7.2 (this machine's is 7.0), and ioredis carries on. Such a reply is
 * neither an ERROR span nor a counted error, so it cannot raise an error-rate alert.
 */
describe('a reply the driver ignores', () => {
  let redis: TestRedis;
  let app: TestingModule;
  let exporter: InMemorySpanExporter;
  let metrics: RedisCommandMetrics;
  let client: InstanceType<typeof Redis>;

  beforeAll(async () => {
    redis = await provideRedis();
    app = await Test.createTestingModule({
      imports: [
        TracingModule.forRoot({ exporter: 'memory', metrics: { prefix: 'handshake_redis_' } }),
      ],
    }).compile();
    await app.init();
    exporter = app.get(TRACING_MEMORY_EXPORTER);
    metrics = app.get(TRACING_METRICS);
    client = registerRedisClient(
      new Redis({ host: redis.host, port: redis.port, lazyConnect: true }),
      'handshake',
    );
    await client.connect();
    await client.get('handshake:absent');
  });

  afterAll(async () => {
    client.disconnect();
    await app.close();
    await redis.stop();
  });

  it('is not an ERROR span, and says what the server answered', async () => {
    await waitFor('the handshake spans', async () =>
      exporter.getFinishedSpans().some((s) => s.name === 'redis.GET'),
    );
    const setinfo = exporter
      .getFinishedSpans()
      .filter(
        (s) =>
          s.name === 'redis.CLIENT' && String(s.attributes['db.statement']).includes('SETINFO'),
      );
    expect(setinfo.length).toBeGreaterThan(0);
    for (const span of setinfo) expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    const refused = setinfo
      .flatMap((s) => s.events)
      .filter((e) => e.name === 'redis.reply_ignored');
    const serverMajorMinor = (await client.info('server')).match(/redis_version:(\d+)\.(\d+)/);
    const before72 =
      Number(serverMajorMinor?.[1]) < 7 ||
      (Number(serverMajorMinor?.[1]) === 7 && Number(serverMajorMinor?.[2]) < 2);
    // A server before 7.2 refuses SETINFO: the refusal is an event, not an error.
    expect(refused.length > 0).toBe(before72);
  });

  it('includes a password given to a server that has none (ioredis 5 warns and carries on)', async () => {
    const spare = registerRedisClient(
      new Redis5({ host: redis.host, port: redis.port, password: 'unneeded', lazyConnect: true }),
      'handshake',
    );
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await spare.connect();
      await waitFor('the AUTH span', async () =>
        exporter.getFinishedSpans().some((s) => s.name === 'redis.AUTH'),
      );
      const auth = exporter.getFinishedSpans().filter((s) => s.name === 'redis.AUTH');
      expect(auth).toHaveLength(1);
      expect(auth[0].status.code).not.toBe(SpanStatusCode.ERROR);
      expect(auth[0].events.map((e) => e.name)).toEqual(['redis.reply_ignored']);
    } finally {
      warn.mockRestore();
      spare.disconnect();
    }
  });

  it('is not counted as an error', async () => {
    const text = await metrics.text();
    expect(text).not.toMatch(/^handshake_redis_errors_total\{[^}]*command="(?:CLIENT|AUTH)"/m);
    expect(text).toMatch(/^handshake_redis_commands_total\{[^}]*command="CLIENT"[^}]*\} [1-9]/m);
  });
});
