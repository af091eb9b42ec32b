// What the tracing benchmarks share: the SDK every tracer runs on, the Nest application with the
// module loaded, and the floor tracer (one span per GET with the attributes every command span
// must carry, nothing else).
import { requireFromRepo } from './bench-support.mjs';

/** Registers the SDK: a batch processor whose exporter drops every batch, and `extra` processors. */
export function registerNoopSdk(extra = []) {
  const { NodeTracerProvider } = requireFromRepo('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = requireFromRepo('@opentelemetry/sdk-trace-base');
  const exporter = {
    export: (_spans, done) => done({ code: 0 }),
    shutdown: async () => undefined,
    forceFlush: async () => undefined,
  };
  const provider = new NodeTracerProvider({
    spanProcessors: [new BatchSpanProcessor(exporter), ...extra],
  });
  provider.register();
  return provider;
}

/** A Nest application context with `TracingModule` (HTTP tracing off), from the built library. */
export async function startTracingApp(traceRedisCommands) {
  requireFromRepo('reflect-metadata');
  const { Module } = requireFromRepo('@nestjs/common');
  const { NestFactory } = requireFromRepo('@nestjs/core');
  const { TracingModule } = requireFromRepo('./libs/tracing/dist/index.js');
  // A Nest module is a class carrying metadata and nothing else.
  // eslint-disable-next-line @typescript-eslint/no-extraneous-class
  class BenchModule {}
  const options = { traceRedisCommands, traceHttpRequests: false };
  Module({ imports: [TracingModule.forRoot(options)] })(BenchModule);
  return NestFactory.createApplicationContext(BenchModule, { logger: false });
}

/** `client.get(key)` traced by the floor tracer. */
export function floorGet(client, key) {
  const { trace, context, SpanKind } = requireFromRepo('@opentelemetry/api');
  const tracer = trace.getTracer('floor');
  const { host, port } = client.options;
  const finish = (span, started) => (value) => {
    span.setAttribute('redisx.duration_ms', performance.now() - started);
    span.end();
    return value;
  };
  return () => {
    const started = performance.now();
    const attributes = {
      'db.system': 'redis',
      'db.operation': 'GET',
      'db.statement': `GET ${key}`,
      'db.redis.key': key,
      'redisx.client': 'default',
      'server.address': host,
      'server.port': port,
      'db.redis.database_index': 0,
    };
    const span = tracer.startSpan(
      'redis.GET',
      { kind: SpanKind.CLIENT, attributes },
      context.active(),
    );
    return client.get(key).then(finish(span, started));
  };
}
