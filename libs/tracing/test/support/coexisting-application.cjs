// An application that installed the OpenTelemetry SDK and prom-client before @redisx/tracing.
// Run with node in a consumer folder; prints what the package spec checks as JSON.
// SDK: '@opentelemetry/sdk-node' (NodeSDK), '@opentelemetry/sdk-trace-node' (NodeTracerProvider)
// or 'none' (the package builds its own provider); REDIS_URL, KEY: where and what to write.
require('reflect-metadata');
const { Controller, Get, Inject, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const Redis = require('ioredis');
const tracing = require('@redisx/tracing');

/** The application's own tracer provider, registered before the Nest application starts. */
function startApplicationSdk(sdk) {
  if (sdk === '@opentelemetry/sdk-node') {
    const { NodeSDK, tracing: trace } = require('@opentelemetry/sdk-node');
    const exporter = new trace.InMemorySpanExporter();
    const spanProcessors = [new trace.SimpleSpanProcessor(exporter)];
    const node = new NodeSDK({ spanProcessors, instrumentations: [] });
    node.start();
    return { spans: () => exporter.getFinishedSpans(), shutdown: () => node.shutdown() };
  }
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node');
  const { InMemorySpanExporter, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  provider.register();
  return { spans: () => exporter.getFinishedSpans(), shutdown: () => provider.shutdown() };
}

class Shop {
  constructor(tracer, redis) {
    this.tracer = tracer;
    this.redis = redis;
  }

  /** SET, a failing INCR (the value is not a number) and GET, inside a span of its own. */
  load() {
    const key = process.env.KEY;
    return this.tracer.withSpan('shop.load', async () => {
      await this.redis.set(key, 'v');
      await this.redis.incr(key).catch(() => undefined);
      return this.redis.get(key);
    });
  }
}
Controller('shop')(Shop);
Get()(Shop.prototype, 'load', Object.getOwnPropertyDescriptor(Shop.prototype, 'load'));
Inject(tracing.TRACING_SERVICE)(Shop, undefined, 0);
Inject('REDIS')(Shop, undefined, 1);

async function main() {
  const sdk = process.env.SDK;
  const application = sdk === 'none' ? null : startApplicationSdk(sdk);
  const exporter = application === null ? 'memory' : undefined;
  // A Nest module is a class; plain JavaScript decorates it by calling Module().
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  class AppModule {}
  Module({
    imports: [tracing.TracingModule.forRoot({ exporter, metrics: { prefix: 'pkg_redis_' } })],
    controllers: [Shop, tracing.TracingMetricsController],
    providers: [
      tracing.provideRedisClient({
        provide: 'REDIS',
        name: 'shop',
        useFactory: () => new Redis(process.env.REDIS_URL),
      }),
    ],
  })(AppModule);
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  const body = await (await fetch(`${url}/shop`)).text();
  const accept = { accept: 'application/openmetrics-text; version=1.0.0' };
  const metrics = await (await fetch(`${url}/metrics`, { headers: accept })).text();
  const spans =
    application === null
      ? app.get(tracing.TRACING_MEMORY_EXPORTER).getFinishedSpans()
      : application.spans();
  const redis = app.get('REDIS');
  await redis.del(process.env.KEY);
  redis.disconnect();
  await app.close();
  await application?.shutdown();
  return {
    body,
    metrics: metrics.split('\n').filter((line) => line.startsWith('pkg_redis_')),
    spans: spans.map((span) => ({
      name: span.name,
      traceId: span.spanContext().traceId,
      id: span.spanContext().spanId,
      parent: span.parentSpanContext?.spanId,
    })),
  };
}

main().then(
  (report) => console.log(JSON.stringify(report)),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
