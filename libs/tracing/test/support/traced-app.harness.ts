import type { DynamicModule, ModuleMetadata, INestApplication } from '@nestjs/common';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import request from 'supertest';
import { TRACING_MEMORY_EXPORTER, TracingModule, type TracingModuleOptions } from '../../src';

/** A running Nest application with tracing, and a supertest agent talking HTTP to it. */
export interface TracedApp {
  app: INestApplication;
  agent: ReturnType<typeof request.agent>;
  /** Finished spans so far (memory exporter). */
  spans(): ReadableSpan[];
}

/** The HTTP platforms Nest runs on. */
export type HttpPlatform = 'express' | 'fastify';

/**
 * Starts an HTTP application with `TracingModule.forRoot({ exporter: 'memory', ...options })`
 * (or the given tracing module) and the given controllers and providers, on Express or Fastify.
 */
export async function startTracedApp(
  metadata: ModuleMetadata,
  options: TracingModuleOptions = {},
  tracing: DynamicModule = TracingModule.forRoot({ exporter: 'memory', ...options }),
  platform: HttpPlatform = 'express',
): Promise<TracedApp> {
  const moduleRef = await Test.createTestingModule({
    ...metadata,
    imports: [tracing, ...(metadata.imports ?? [])],
  }).compile();
  let app: INestApplication;
  if (platform === 'fastify') {
    const fastify = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), {
      logger: false,
    });
    await fastify.init();
    await fastify.getHttpAdapter().getInstance().ready();
    app = fastify;
  } else {
    app = moduleRef.createNestApplication({ logger: false });
    await app.init();
  }
  const exporter = app.get<InMemorySpanExporter | null>(TRACING_MEMORY_EXPORTER);
  return {
    app,
    agent: request.agent(app.getHttpServer()),
    spans: () => exporter?.getFinishedSpans() ?? [],
  };
}

/** Span helpers over a list of finished spans. */
export const idOf = (span: ReadableSpan) => span.spanContext().spanId;
export const traceOf = (span: ReadableSpan) => span.spanContext().traceId;
export const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

/** The only span named `name` among `spans`; fails when there is not exactly one. */
export function only(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) {
    throw new Error(
      `expected one span "${name}", found ${found.length}: ${spans.map((s) => s.name).join(', ')}`,
    );
  }
  return found[0];
}

/** The children of `parent` among `spans`, by name, in start order. */
export function childrenOf(spans: ReadableSpan[], parent: ReadableSpan): string[] {
  return spans
    .filter((span) => parentOf(span) === idOf(parent))
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
    .map((span) => span.name);
}

/** A random prefix for the Redis keys of one test file. */
export function keyPrefix(): string {
  return `redisx-tracing-test:${Math.random().toString(36).slice(2, 10)}`;
}
