import { Test, type TestingModule } from '@nestjs/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startRedisCluster, type TestRedisCluster } from '@redisx/testing';
import Redis6 from 'ioredis';
import Redis5 from 'ioredis-v5';
import {
  registerRedisClient,
  TRACING_MEMORY_EXPORTER,
  TRACING_SERVICE,
  TracingModule,
  type ITracingService,
} from '../src';
import { ClusterSlots, slotOf } from './support/cluster-slots';
import { idOf, keyPrefix, only, parentOf } from './support/traced-app.harness';

type Driver = typeof Redis6;
type AnyRedis = InstanceType<Driver>;
type AnyCluster = InstanceType<Driver['Cluster']>;

let cluster: TestRedisCluster;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
});

afterAll(async () => {
  await cluster?.stop();
});

describe.each([
  ['ioredis 6', Redis6],
  ['ioredis 5', Redis5 as unknown as Driver],
])('Redis Cluster command spans with %s', (_driver, Redis) => {
  let app: TestingModule;
  let tracing: ITracingService;
  let exporter: InMemorySpanExporter;
  let sessions: AnyCluster;
  let slots: ClusterSlots;
  /** The masters' ports, in start order. */
  let ports: number[];
  const admins = new Map<number, AnyRedis>();

  /** Spans finished while `work` ran. */
  const during = async (work: () => Promise<unknown>): Promise<ReadableSpan[]> => {
    const before = exporter.getFinishedSpans().length;
    await work();
    return exporter.getFinishedSpans().slice(before);
  };
  /** The spans of the `sessions` cluster client among `spans` that are children of `parent`. */
  const commandsUnder = (spans: ReadableSpan[], parent: ReadableSpan) =>
    spans.filter(
      (span) => parentOf(span) === idOf(parent) && span.attributes['redisx.client'] === 'sessions',
    );
  const served = (port: number) => ({ 'server.address': '127.0.0.1', 'server.port': port });

  beforeAll(async () => {
    app = await Test.createTestingModule({
      imports: [TracingModule.forRoot({ exporter: 'memory' })],
    }).compile();
    await app.init();
    tracing = app.get(TRACING_SERVICE);
    exporter = app.get(TRACING_MEMORY_EXPORTER);
    ports = cluster.nodes.map((node) => node.port);
    // A plain client of the same driver copy per master, for setting the cluster up.
    for (const node of cluster.nodes) {
      const admin = new Redis({ host: node.host, port: node.port });
      admins.set(node.port, registerRedisClient(admin, 'admin'));
    }
    slots = await new ClusterSlots(keyPrefix(), admins).load(cluster.nodes);
    // Only the first master in the startup list: the client learns the others from it.
    const [first] = cluster.nodes;
    sessions = registerRedisClient(
      new Redis.Cluster([{ host: first.host, port: first.port }]),
      'sessions',
    );
  });

  afterAll(async () => {
    sessions?.disconnect();
    for (const admin of admins.values()) admin.disconnect();
    await app?.close();
  });

  it('makes one span per command, under the caller, on whichever master serves the key', async () => {
    const [onFirst, onSecond, onThird] = await Promise.all(
      ports.map((port, index) => slots.keyOn(port, `key${index}`)),
    );
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        await sessions.set(onFirst, 'value');
        await Promise.all([sessions.get(onSecond), sessions.hset(onThird, 'field', 'value')]);
      }),
    );
    const job = only(spans, 'job');
    const commands = commandsUnder(spans, job);
    expect(commands.map((span) => span.name).sort()).toEqual([
      'redis.GET',
      'redis.HSET',
      'redis.SET',
    ]);
    expect(only(spans, 'redis.SET').attributes).toMatchObject({
      'db.system': 'redis',
      'db.operation': 'SET',
      'db.statement': `SET ${onFirst} ?`,
      'db.redis.key': onFirst,
      'redisx.client': 'sessions',
      ...served(ports[0]),
    });
    expect(only(spans, 'redis.GET').attributes).toMatchObject({
      'db.operation': 'GET',
      'db.statement': `GET ${onSecond}`,
      'db.redis.key': onSecond,
      'redisx.client': 'sessions',
      ...served(ports[1]),
    });
    expect(only(spans, 'redis.HSET').attributes).toMatchObject({
      'db.operation': 'HSET',
      'db.statement': `HSET ${onThird} ? ?`,
      'db.redis.key': onThird,
      'redisx.client': 'sessions',
      ...served(ports[2]),
    });
    for (const command of commands) {
      expect(command.status.code).toBe(SpanStatusCode.UNSET);
      expect(command.ended).toBe(true);
    }
  });

  it('follows a MOVED redirection: one span, on the master that served the command', async () => {
    const key = await slots.keyOn(ports[0], 'moved');
    await sessions.get(key);
    // The client's slot map says the first master; the slot then goes to the second one.
    expect(sessions.slots[slotOf(key)]).toEqual([`127.0.0.1:${ports[0]}`]);
    await slots.moveSlot(key, ports[1]);
    const spans = await during(() => tracing.withSpan('job', () => sessions.set(key, 'moved')));
    expect(sessions.slots[slotOf(key)]).toEqual([`127.0.0.1:${ports[1]}`]);
    expect(await admins.get(ports[1])?.get(key)).toBe('moved');
    const set = only(spans, 'redis.SET');
    expect(parentOf(set)).toBe(idOf(only(spans, 'job')));
    expect(set.status.code).toBe(SpanStatusCode.UNSET);
    expect(set.events).toEqual([]);
    expect(set.attributes['error.type']).toBeUndefined();
    expect(set.attributes).toMatchObject({
      'db.statement': `SET ${key} ?`,
      'db.redis.key': key,
      'redisx.client': 'sessions',
      ...served(ports[1]),
    });
  });

  it('puts a pipeline on one slot under redis.PIPELINE, its commands on the serving master', async () => {
    const counter = await slots.keyOn(ports[2], 'counter');
    const name = counter.replace(/:counter$/, ':name');
    let results: unknown;
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        results = await sessions.pipeline().set(name, 'value').incr(counter).exec();
      }),
    );
    expect(results).toEqual([
      [null, 'OK'],
      [null, 1],
    ]);
    const job = only(spans, 'job');
    const pipeline = only(spans, 'redis.PIPELINE');
    expect(commandsUnder(spans, job)).toEqual([pipeline]);
    expect(pipeline.attributes).toMatchObject({
      'db.operation': 'PIPELINE',
      'db.operation.batch.size': 2,
      'redisx.client': 'sessions',
    });
    expect(pipeline.status.code).toBe(SpanStatusCode.UNSET);
    const commands = commandsUnder(spans, pipeline);
    expect(commands.map((span) => span.name)).toEqual(['redis.SET', 'redis.INCR']);
    expect(only(spans, 'redis.SET').attributes).toMatchObject({
      'db.statement': `SET ${name} ?`,
      'db.redis.key': name,
      ...served(ports[2]),
    });
    expect(only(spans, 'redis.INCR').attributes).toMatchObject({
      'db.statement': `INCR ${counter}`,
      'db.redis.key': counter,
      ...served(ports[2]),
    });
  });

  it('records an error reply as ERROR and rejects the caller with the same error', async () => {
    const key = await slots.keyOn(ports[1], 'hash');
    await sessions.hset(key, 'field', 'value');
    let fromCommand: unknown;
    let fromSpan: unknown;
    const spans = await during(() =>
      tracing
        .withSpan('job', () =>
          sessions.incr(key).catch((error: unknown) => {
            fromCommand = error;
            throw error;
          }),
        )
        .catch((error: unknown) => (fromSpan = error)),
    );
    expect(fromCommand).toBeInstanceOf(Error);
    expect(fromSpan).toBe(fromCommand);
    const message = (fromCommand as Error).message;
    expect(message).toMatch(/^WRONGTYPE /);
    const job = only(spans, 'job');
    const incr = only(spans, 'redis.INCR');
    expect(commandsUnder(spans, job)).toEqual([incr]);
    expect(incr.status).toEqual({ code: SpanStatusCode.ERROR, message });
    expect(incr.events.map((event) => event.attributes?.['exception.message'])).toEqual([message]);
    expect(incr.attributes).toMatchObject({
      'error.type': 'WRONGTYPE',
      'db.statement': `INCR ${key}`,
      'redisx.client': 'sessions',
      ...served(ports[1]),
    });
  });
});
