import { Test, type TestingModule } from '@nestjs/testing';
import type { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startRedisCluster, type TestRedisCluster } from '@redisx/testing';
import Redis from 'ioredis';
import {
  registerRedisClient,
  TRACING_MEMORY_EXPORTER,
  TRACING_SERVICE,
  TracingModule,
  type ITracingService,
} from '../src';
import { idOf, keyPrefix, parentOf } from './support/traced-app.harness';

/**
 * A standalone client registered before the module starts must not hide the rest of its ioredis
 * copy: a `Cluster` of that copy created later, even unregistered, is traced like any other.
 */
describe('a Cluster of a copy first seen through an early registered client', () => {
  let cluster: TestRedisCluster;
  let app: TestingModule;
  let early: Redis;
  let sessions: InstanceType<typeof Redis.Cluster>;

  beforeAll(async () => {
    cluster = await startRedisCluster({ masters: 3 });
    const [first] = cluster.nodes;
    early = registerRedisClient(
      new Redis({ host: first.host, port: first.port, lazyConnect: true }),
      'early',
    );
    app = await Test.createTestingModule({
      imports: [TracingModule.forRoot({ exporter: 'memory' })],
    }).compile();
    await app.init();
    sessions = new Redis.Cluster([{ host: first.host, port: first.port }]);
  });

  afterAll(async () => {
    sessions?.disconnect();
    early?.disconnect();
    await app?.close();
    await cluster?.stop();
  });

  it('gives each cluster command one span under the caller', async () => {
    const tracing = app.get<ITracingService>(TRACING_SERVICE);
    const exporter = app.get<InMemorySpanExporter>(TRACING_MEMORY_EXPORTER);
    const key = `${keyPrefix()}:discovery`;
    await tracing.withSpan('job', () => sessions.set(key, 'v'));
    const spans = exporter.getFinishedSpans();
    const job = spans.find((s) => s.name === 'job');
    const sets = spans.filter((s) => s.name === 'redis.SET');
    if (job === undefined) throw new Error('the job span was not exported');
    expect(sets).toHaveLength(1);
    expect(parentOf(sets[0])).toBe(idOf(job));
    expect(sets[0].attributes).toMatchObject({
      'db.statement': `SET ${key} ?`,
      'db.redis.key': key,
    });
  });
});
