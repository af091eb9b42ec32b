import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { provideRedis, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import request from 'supertest';
import { AppModule, EXAMPLE_TRACING } from '../src/app.module';

describe('the tracing example', () => {
  let redis: TestRedis;
  let app: INestApplication;
  const printed: string[] = [];
  const id = `t${Math.random().toString(36).slice(2, 10)}`;

  beforeAll(async () => {
    redis = await provideRedis();
    jest
      .spyOn(console, 'log')
      .mockImplementation((text: unknown) => void printed.push(String(text)));
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.create(redis.url, EXAMPLE_TRACING)],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
    jest.restoreAllMocks();
    const client = new Redis(redis.url);
    await client.del(`example:order:${id}`, `example:order:${id}:views`);
    client.disconnect();
    await redis.stop();
  });

  it('prints one trace with the HTTP, custom and Redis spans nested', async () => {
    await request(app.getHttpServer())
      .get(`/orders/${id}`)
      .expect(200, { id, status: 'paid', views: 1 });
    const tree = printed.find((text) => text.includes(`/orders/${id}`));
    expect(tree).toBeDefined();
    const shape = (tree ?? '')
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/^(.*? (SERVER|INTERNAL|CLIENT)) .*$/, '$1'));
    expect(shape).toEqual([
      '└─ GET /orders/:id SERVER',
      '   └─ order.view INTERNAL',
      '      ├─ redis.GET CLIENT',
      '      ├─ order.load-from-db INTERNAL',
      '      ├─ redis.SET CLIENT',
      '      ├─ redis.PIPELINE CLIENT',
      '      │  ├─ redis.INCR CLIENT',
      '      │  └─ redis.EXPIRE CLIENT',
      '      └─ redis.PUBLISH CLIENT',
    ]);
    expect(tree).toContain(`db.statement="SET example:order:${id} ? ? ?"`);
    expect(tree).toContain('redisx.client="cache"');
  });

  it('names the runtime subscriber connection cache:subscriber', () => {
    const subscribe = printed.find((text) => text.includes('redis.SUBSCRIBE'));
    expect(subscribe).toContain('redisx.client="cache:subscriber"');
  });

  it('serves the Redis metrics under the spec prefix', async () => {
    const response = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(response.text).toMatch(
      /myapp_redis_commands_total\{command="GET",client="cache",status="success"\} \d+/,
    );
  });
});
