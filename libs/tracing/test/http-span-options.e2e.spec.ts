import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { provideRedis, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import { provideRedisClient, type TracingModuleOptions } from '../src';
import {
  childrenOf,
  keyPrefix,
  only,
  parentOf,
  startTracedApp,
  type HttpPlatform,
  type TracedApp,
} from './support/traced-app.harness';
import { CACHE, OrderController, OrderService, PREFIX } from './support/shop.fixture';

const prefix = keyPrefix();
let redis: TestRedis;
const clients: Redis[] = [];
beforeAll(async () => (redis = await provideRedis()));
afterAll(async () => {
  for (const client of clients) client.disconnect();
  await redis.stop();
});

/** The shop on `platform` with the given tracing options. */
function startShop(platform: HttpPlatform, options: TracingModuleOptions): Promise<TracedApp> {
  return startTracedApp(
    {
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
    },
    { spans: { connectionCommands: false }, ...options },
    undefined,
    platform,
  );
}

/** The spans one request made. */
async function request(shop: TracedApp, path: string, status: number) {
  const before = shop.spans().length;
  await shop.agent.get(path).set('x-tenant', 'acme').expect(status);
  return shop.spans().slice(before);
}

describe.each<HttpPlatform>(['express', 'fastify'])('the HTTP SERVER span on %s', (platform) => {
  let shop: TracedApp | undefined;
  afterEach(async () => {
    await shop?.app.close();
    shop = undefined;
  });

  it('is named by the route, holds the request, and the Redis spans nest under it', async () => {
    shop = await startShop(platform, {});
    const spans = await request(shop, '/orders/7?token=s3cret&flag', 200);
    const http = only(spans, 'GET /orders/:id');
    expect(http.kind).toBe(SpanKind.SERVER);
    expect(http.attributes).toMatchObject({
      'http.method': 'GET',
      'http.route': '/orders/:id',
      'http.status_code': 200,
      'http.url': expect.stringMatching(
        /^http:\/\/127\.0\.0\.1:\d+\/orders\/7\?token=REDACTED&flag$/,
      ),
    });
    expect(parentOf(http)).toBeUndefined();
    expect(childrenOf(spans, http)).toEqual(['order.load']);
    expect(childrenOf(spans, only(spans, 'order.load'))).toEqual([
      'redis.GET',
      'redis.SET',
      'redis.PIPELINE',
    ]);
  });

  it('is ERROR on a 500', async () => {
    shop = await startShop(platform, {});
    const spans = await request(shop, '/orders/9/broken', 500);
    const http = only(spans, 'GET /orders/:id/broken');
    expect(http.status).toEqual({ code: SpanStatusCode.ERROR, message: 'HTTP 500' });
    expect(http.attributes['http.status_code']).toBe(500);
  });

  it('http.requestHook and responseHook see the request and the response', async () => {
    shop = await startShop(platform, {
      http: {
        requestHook: (span, req) =>
          span.setAttribute('app.tenant', String(req.headers['x-tenant'])),
        responseHook: (span, res) => span.setAttribute('app.status', res.statusCode),
      },
    });
    const http = only(await request(shop, '/orders/3', 200), 'GET /orders/:id');
    expect(http.attributes).toMatchObject({
      'app.tenant': 'acme',
      'app.status': 200,
    });
  });

  it('a hook that throws changes nothing for the response', async () => {
    shop = await startShop(platform, {
      http: {
        requestHook: () => {
          throw new Error('hook bug');
        },
        responseHook: () => {
          throw new Error('hook bug');
        },
      },
    });
    expect(only(await request(shop, '/orders/4', 200), 'GET /orders/:id').ended).toBe(true);
  });

  it('http.redactQueryString: false keeps the query values', async () => {
    shop = await startShop(platform, { http: { redactQueryString: false } });
    const http = only(await request(shop, '/orders/5?page=2', 200), 'GET /orders/:id');
    expect(http.attributes['http.url']).toMatch(/\/orders\/5\?page=2$/);
  });

  it('OTEL_SEMCONV_STABILITY_OPT_IN=http names the attributes as the stable conventions', async () => {
    const saved = process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
    process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = 'http,database';
    try {
      shop = await startShop(platform, {});
    } finally {
      if (saved === undefined) delete process.env['OTEL_SEMCONV_STABILITY_OPT_IN'];
      else process.env['OTEL_SEMCONV_STABILITY_OPT_IN'] = saved;
    }
    const spans = await request(shop, '/orders/6?x=1', 200);
    const http = only(spans, 'GET /orders/:id');
    expect(http.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/orders/:id',
      'http.response.status_code': 200,
      'url.full': expect.stringMatching(/\/orders\/6\?x=REDACTED$/),
    });
    for (const old of ['http.method', 'http.url', 'http.status_code']) {
      expect(http.attributes).not.toHaveProperty(old);
    }
    expect(only(spans, 'redis.GET').attributes).toMatchObject({ 'db.system.name': 'redis' });
  });
});
