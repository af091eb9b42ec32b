import { Controller, Get, Inject, Injectable } from '@nestjs/common';
import { provideRedis, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import { provideRedisClient, Span } from '../src';
import { keyPrefix, startTracedApp, type TracedApp } from './support/traced-app.harness';

const CLIENT = Symbol('client');
const KEY = keyPrefix();

@Injectable()
class Pinger {
  constructor(@Inject(CLIENT) private readonly redis: Redis) {}

  @Span('pinger.ping')
  ping(): Promise<string | null> {
    return this.redis.get(KEY);
  }
}

@Controller('ping')
class PingController {
  constructor(@Inject(Pinger) private readonly pinger: Pinger) {}

  @Get()
  async get(): Promise<{ ok: boolean }> {
    await this.pinger.ping();
    return { ok: true };
  }
}

/** The span names an application exported since `from`. */
const namesSince = (app: TracedApp, from: number) =>
  app
    .spans()
    .slice(from)
    .map((s) => s.name)
    .sort();

describe('two applications with TracingModule in one process', () => {
  let redis: TestRedis;
  const clients: Redis[] = [];
  let first: TracedApp;
  let second: TracedApp;

  const start = (name: string) =>
    startTracedApp({
      controllers: [PingController],
      providers: [
        Pinger,
        provideRedisClient({
          provide: CLIENT,
          name,
          useFactory: () => {
            const client = new Redis(redis.url);
            clients.push(client);
            return client;
          },
        }),
      ],
    });

  beforeAll(async () => {
    redis = await provideRedis();
    first = await start('first');
    second = await start('second');
    // Connection handshakes run outside any request; let them finish before counting spans.
    await Promise.all(
      clients.map((c) =>
        c.status === 'ready' ? undefined : new Promise((resolve) => c.once('ready', resolve)),
      ),
    );
  });

  afterAll(async () => {
    await second.app.close();
    for (const client of clients) client.disconnect();
    await redis.stop();
  });

  it("reports each application's request, @Span() method and commands to its own tracer", async () => {
    const [a, b] = [first.spans().length, second.spans().length];
    await first.agent.get('/ping').expect(200);
    expect(namesSince(first, a)).toEqual(['GET /ping', 'pinger.ping', 'redis.GET']);
    expect(namesSince(second, b)).toEqual([]);

    const [c, d] = [first.spans().length, second.spans().length];
    await second.agent.get('/ping').expect(200);
    expect(namesSince(second, d)).toEqual(['GET /ping', 'pinger.ping', 'redis.GET']);
    expect(namesSince(first, c)).toEqual([]);
    const command = second.spans().find((s) => s.name === 'redis.GET');
    expect(command?.attributes['redisx.client']).toBe('second');
  });

  it('keeps tracing the second after the first closes', async () => {
    await first.app.close();
    const before = second.spans().length;
    await second.agent.get('/ping').expect(200);
    expect(namesSince(second, before)).toEqual(['GET /ping', 'pinger.ping', 'redis.GET']);
    // Context still propagates: the command nests under the method under the request.
    const spans = second.spans().slice(before);
    const byName = (name: string) => spans.find((s) => s.name === name);
    expect(byName('redis.GET')?.parentSpanContext?.spanId).toBe(
      byName('pinger.ping')?.spanContext().spanId,
    );
    expect(byName('pinger.ping')?.parentSpanContext?.spanId).toBe(
      byName('GET /ping')?.spanContext().spanId,
    );
  });
});
