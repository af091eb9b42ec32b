import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { provideRedis } from '@redisx/testing';

const REPO = join(__dirname, '../../..');
const PEERS = [
  '@nestjs/common@11.2.10',
  '@nestjs/core@11.2.10',
  'reflect-metadata',
  'rxjs',
  '@opentelemetry/api@1.9.1',
  '@nestjs/platform-express@11.2.10',
  'ioredis@6.0.0',
];

/** Runs in the consumer folder against the installed copy; prints what the test checks. */
const CONSUMER_SCRIPT = `
require('reflect-metadata');
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const tracing = require('@redisx/tracing');
(async () => {
  class AppModule {}
  Module({ imports: [tracing.TracingModule.forRoot({ exporter: 'memory' })] })(AppModule);
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  const service = app.get(tracing.TRACING_SERVICE);
  const result = await service.withSpan('outer', () => service.withSpan('inner', () => 42));
  const spans = app.get(tracing.TRACING_MEMORY_EXPORTER).getFinishedSpans();
  await app.close();
  console.log(JSON.stringify({
    resolved: require.resolve('@redisx/tracing'),
    exports: Object.keys(tracing).sort(),
    sharedToken: tracing.TRACING_SERVICE === Symbol.for('redisx.tracing.TracingService'),
    result,
    spans: spans.map((s) => ({ name: s.name, id: s.spanContext().spanId, parent: s.parentSpanContext?.spanId, status: s.status.code })),
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** A fresh HTTP application: a Redis-backed handler, its trace and its metrics, from the installed copy. */
const CONSUMER_APP = `
require('reflect-metadata');
const { Controller, Get, Inject, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const Redis = require('ioredis');
const tracing = require('@redisx/tracing');
const key = process.env.KEY;
(async () => {
  class Shop {
    constructor(tracer, redis) { this.tracer = tracer; this.redis = redis; }
    load() { return this.tracer.withSpan('shop.load', async () => { await this.redis.set(key, 'v'); return this.redis.get(key); }, { kind: 'INTERNAL' }); }
  }
  Controller('shop')(Shop);
  Get()(Shop.prototype, 'load', Object.getOwnPropertyDescriptor(Shop.prototype, 'load'));
  Inject(tracing.TRACING_SERVICE)(Shop, undefined, 0);
  Inject('REDIS')(Shop, undefined, 1);
  class AppModule {}
  Module({
    imports: [tracing.TracingModule.forRoot({ exporter: 'memory', metrics: { prefix: 'pkg_redis_' } })],
    controllers: [Shop, tracing.TracingMetricsController],
    providers: [tracing.provideRedisClient({ provide: 'REDIS', name: 'shop', useFactory: () => new Redis(process.env.REDIS_URL) })],
  })(AppModule);
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  const body = await (await fetch(url + '/shop')).text();
  const metrics = await (await fetch(url + '/metrics')).text();
  const spans = app.get(tracing.TRACING_MEMORY_EXPORTER).getFinishedSpans();
  await app.get('REDIS').del(key);
  app.get('REDIS').disconnect();
  await app.close();
  console.log(JSON.stringify({
    body,
    metrics: metrics.split('\\n').filter((line) => line.startsWith('pkg_redis_commands_total')),
    spans: spans.filter((s) => s.name !== 'GET /metrics').map((s) => ({ name: s.name, id: s.spanContext().spanId, parent: s.parentSpanContext?.spanId, attributes: s.attributes })),
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** Compiles against the installed type declarations; the expect-error fails if types were `any`. */
const CONSUMER_TYPES = `
import { TRACING_SERVICE, TracingModule, type ITracingService } from '@redisx/tracing';
export const imports = [TracingModule.forRoot({ exporter: 'memory', isGlobal: true })];
export async function use(get: (token: symbol) => ITracingService): Promise<number> {
  const tracing = get(TRACING_SERVICE);
  // @ts-expect-error an unknown span kind is a type error
  tracing.startSpan('typed', { kind: 'BACKGROUND' });
  return tracing.withSpan('typed', async () => 1, { kind: 'INTERNAL' });
}
`;

/** Runs a command to completion; a non-zero exit fails with the command's stderr. */
async function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<string> {
  const options = {
    cwd,
    encoding: 'utf8' as const,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, ...env },
  };
  try {
    return (await promisify(execFile)(command, args, options)).stdout;
  } catch (error) {
    const { code, stderr } = error as { code?: number; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} exited ${code}\n${stderr}`);
  }
}

describe('the packed @redisx/tracing', () => {
  let work: string;
  let tarball: string;
  const consumer = () => join(work, 'consumer');

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'redisx-tracing-package-'));
    const packed = await run(
      'node',
      ['tools/pack.mjs', '--destination', work, '@redisx/tracing'],
      REPO,
    );
    tarball = packed.trim();
    await mkdir(consumer());
    const manifest = { name: 'tracing-consumer', version: '1.0.0', private: true };
    await writeFile(join(consumer(), 'package.json'), JSON.stringify(manifest));
    const install = ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...PEERS];
    await run('npm', install, consumer());
  }, 300_000);

  afterAll(() => rm(work, { recursive: true, force: true }));

  it('ships the build output, README and LICENSE and nothing from the sources', async () => {
    const files = (await run('tar', ['-tzf', tarball], work)).trim().split('\n');
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/LICENSE',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/tracing.module.js',
      ]),
    );
    expect(files.filter((file) => /\.spec\.|\/src\/|\/test\//.test(file))).toEqual([]);
  });

  it('exposes the module and token and traces nested spans from the installed copy', async () => {
    const report = JSON.parse(await run('node', ['-e', CONSUMER_SCRIPT], consumer()));

    expect(report.resolved).toBe(join(consumer(), 'node_modules/@redisx/tracing/dist/index.js'));
    expect(report.exports).toEqual([
      'RedisCommandMetrics',
      'Span',
      'TRACING_MEMORY_EXPORTER',
      'TRACING_METRICS',
      'TRACING_SERVICE',
      'TracingMetricsController',
      'TracingModule',
      'provideRedisClient',
      'registerRedisClient',
    ]);
    expect(report.sharedToken).toBe(true);
    expect(report.result).toBe(42);
    const [inner, outer] = report.spans;
    expect([inner.name, outer.name]).toEqual(['inner', 'outer']);
    expect(inner.parent).toBe(outer.id);
    expect(outer.parent).toBeUndefined();
    expect([inner.status, outer.status]).toEqual([1, 1]);
  });

  it('traces HTTP requests and Redis commands and serves metrics in a fresh Nest application', async () => {
    const redis = await provideRedis();
    const key = `redisx-tracing-package:${Math.random().toString(36).slice(2)}`;
    try {
      const output = await run('node', ['-e', CONSUMER_APP], consumer(), {
        REDIS_URL: redis.url,
        KEY: key,
      });
      const report = JSON.parse(output) as {
        body: string;
        metrics: string[];
        spans: { name: string; id: string; parent?: string; attributes: Record<string, unknown> }[];
      };
      expect(report.body).toBe('v');
      const byName = (name: string) => report.spans.find((span) => span.name === name);
      const http = byName('GET /shop');
      const load = byName('shop.load');
      expect(http?.attributes).toMatchObject({ 'http.route': '/shop', 'http.status_code': 200 });
      expect(load?.parent).toBe(http?.id);
      for (const name of ['redis.SET', 'redis.GET']) {
        expect(byName(name)?.parent).toBe(load?.id);
        expect(byName(name)?.attributes['redisx.client']).toBe('shop');
      }
      expect(byName('redis.SET')?.attributes['db.statement']).toBe(`SET ${key} ?`);
      expect(report.metrics).toEqual(
        expect.arrayContaining([
          'pkg_redis_commands_total{command="SET",client="shop",status="success"} 1',
          'pkg_redis_commands_total{command="GET",client="shop",status="success"} 1',
        ]),
      );
    } finally {
      await redis.stop();
    }
  });

  it('type-checks a consumer against the published declarations', async () => {
    await writeFile(join(consumer(), 'consumer.ts'), CONSUMER_TYPES);
    const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--experimentalDecorators'];
    const options = [...flags, '--module', 'commonjs', '--moduleResolution', 'node'];
    await run('node', [tsc, ...options, '--target', 'es2022', 'consumer.ts'], consumer());
  });
});
