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

/** The methods of the ioredis 5 copy before anything wrapped them. */
const unwrapped = {
  redis: Redis5.prototype.sendCommand,
  cluster: Redis5.Cluster.prototype.sendCommand,
};

let cluster: TestRedisCluster;
let app: TestingModule | undefined;
let tracing: ITracingService;
let exporter: InMemorySpanExporter;
let slots: ClusterSlots;
let ports: number[];
/** Setup connections of ioredis 6 only, so that no ioredis 5 `Redis` is ever registered here. */
const admins = new Map<number, AnyRedis>();
const clients: AnyCluster[] = [];

const during = async (work: () => Promise<unknown>): Promise<ReadableSpan[]> => {
  const before = exporter.getFinishedSpans().length;
  await work();
  return exporter.getFinishedSpans().slice(before);
};
const served = (port: number) => ({ 'server.address': '127.0.0.1', 'server.port': port });

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  app = await Test.createTestingModule({
    imports: [TracingModule.forRoot({ exporter: 'memory' })],
  }).compile();
  await app.init();
  tracing = app.get(TRACING_SERVICE);
  exporter = app.get(TRACING_MEMORY_EXPORTER);
  ports = cluster.nodes.map((node) => node.port);
  for (const node of cluster.nodes) admins.set(node.port, new Redis6(node));
  slots = await new ClusterSlots(keyPrefix(), admins).load(cluster.nodes);
});

afterAll(async () => {
  for (const client of clients) client.disconnect();
  for (const admin of admins.values()) admin.disconnect();
  await app?.close();
  await cluster?.stop();
});

const connect = (Redis: Driver, name: string, options: { maxRedirections?: number } = {}) => {
  const client = registerRedisClient(new Redis.Cluster([cluster.nodes[0]], options), name);
  clients.push(client);
  return client;
};

describe('a Cluster of an ioredis copy the library does not resolve (ioredis 5 here)', () => {
  it('gives its commands the master that served them, one span each', async () => {
    const client = connect(Redis5 as unknown as Driver, 'sessions-v5');
    const key = await slots.keyOn(ports[2], 'plain');
    const spans = await during(() => tracing.withSpan('job', () => client.set(key, 'value')));
    expect(only(spans, 'redis.SET').attributes).toMatchObject({
      'redisx.client': 'sessions-v5',
      ...served(ports[2]),
    });
  });
});

describe.each([
  ['ioredis 6', Redis6],
  ['ioredis 5', Redis5 as unknown as Driver],
])('a redirected cluster pipeline with %s', (_driver, Redis) => {
  it('traces its commands on the master that served them after MOVED', async () => {
    const client = connect(Redis, 'sessions');
    const counter = await slots.keyOn(ports[0], 'counter');
    const name = counter.replace(/:counter$/, ':name');
    await client.get(counter);
    expect(client.slots[slotOf(counter)]).toEqual([`127.0.0.1:${ports[0]}`]);
    await slots.moveSlot(counter, ports[1]);
    let results: unknown;
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        results = await client.pipeline().set(name, 'value').incr(counter).exec();
      }),
    );
    expect(results).toEqual([
      [null, 'OK'],
      [null, 1],
    ]);
    const pipeline = only(spans, 'redis.PIPELINE');
    expect(parentOf(pipeline)).toBe(idOf(only(spans, 'job')));
    for (const command of [only(spans, 'redis.SET'), only(spans, 'redis.INCR')]) {
      expect(parentOf(command)).toBe(idOf(pipeline));
      expect(command.attributes['error.type']).toBeUndefined();
      expect(command.status.code).toBe(SpanStatusCode.UNSET);
      expect(command.events).toEqual([]);
      expect(command.attributes).toMatchObject(served(ports[1]));
    }
  });

  it('traces its commands on the master that served them after ASK', async () => {
    const client = connect(Redis, 'sessions');
    const counter = await slots.keyOn(ports[0], 'counter');
    const name = counter.replace(/:counter$/, ':name');
    await client.get(counter);
    await slots.migrateSlot(counter, ports[2]);
    let results: unknown;
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        results = await client.pipeline().set(name, 'value').incr(counter).exec();
      }),
    );
    await slots.moveSlot(counter, ports[2]);
    expect(results).toEqual([
      [null, 'OK'],
      [null, 1],
    ]);
    const pipeline = only(spans, 'redis.PIPELINE');
    for (const command of [only(spans, 'redis.SET'), only(spans, 'redis.INCR')]) {
      expect(parentOf(command)).toBe(idOf(pipeline));
      expect(command.attributes['error.type']).toBeUndefined();
      expect(command.status.code).toBe(SpanStatusCode.UNSET);
      expect(command.events).toEqual([]);
      expect(command.attributes).toMatchObject(served(ports[2]));
    }
  });

  it('ends its commands as failed when it gives up on a redirection', async () => {
    const client = connect(Redis, 'sessions-once', { maxRedirections: 0 });
    const counter = await slots.keyOn(ports[0], 'counter');
    await client.get(counter);
    await slots.moveSlot(counter, ports[1]);
    let results: [Error | null, unknown][] = [];
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        results = (await client.pipeline().get(counter).incr(counter).exec()) ?? [];
      }),
    );
    const errors = results.map(([error]) => error);
    expect(errors).toHaveLength(2);
    const pipeline = only(spans, 'redis.PIPELINE');
    expect(pipeline.status.code).toBe(SpanStatusCode.ERROR);
    const commands = [only(spans, 'redis.GET'), only(spans, 'redis.INCR')];
    commands.forEach((command, index) => {
      const error = errors[index];
      expect(error?.message).toMatch(/^MOVED /);
      expect(parentOf(command)).toBe(idOf(pipeline));
      expect(command.status).toEqual({ code: SpanStatusCode.ERROR, message: error?.message });
      expect(command.events.map((event) => event.attributes?.['exception.message'])).toEqual([
        error?.message,
      ]);
      expect(command.attributes).toMatchObject({ 'error.type': 'MOVED', ...served(ports[0]) });
    });
  });

  it('ends a command as failed when the pipeline cannot follow its redirection', async () => {
    // Two slots of one master, one of which moves: the write on the other one succeeded, so the
    // pipeline is not sent again and the moved command keeps its MOVED error.
    const client = connect(Redis, 'sessions');
    const stays = await slots.keyOn(ports[0], 'stays');
    const moves = await slots.keyOn(ports[0], 'moves');
    await Promise.all([client.get(stays), client.get(moves)]);
    await slots.moveSlot(moves, ports[1]);
    let results: [Error | null, unknown][] = [];
    const spans = await during(() =>
      tracing.withSpan('job', async () => {
        results = (await client.pipeline().set(stays, 'value').incr(moves).exec()) ?? [];
      }),
    );
    expect(results).toHaveLength(2);
    const [[setError, setResult], [incrError]] = results;
    expect([setError, setResult]).toEqual([null, 'OK']);
    expect(incrError?.message).toMatch(/^MOVED /);
    const set = only(spans, 'redis.SET');
    expect(set.status.code).toBe(SpanStatusCode.UNSET);
    expect(set.attributes).toMatchObject(served(ports[0]));
    const incr = only(spans, 'redis.INCR');
    expect(incr.status).toEqual({ code: SpanStatusCode.ERROR, message: incrError?.message });
    expect(incr.attributes).toMatchObject({ 'error.type': 'MOVED', ...served(ports[0]) });
  });
});

describe('closing the application', () => {
  it('unwraps the ioredis 5 Redis class it found through a Cluster', async () => {
    const client = connect(Redis5 as unknown as Driver, 'sessions-v5');
    await client.get(await slots.keyOn(ports[1], 'plain'));
    expect(Redis5.prototype.sendCommand).not.toBe(unwrapped.redis);
    expect(Redis5.prototype.sendCommand.name).toBe('sendCommand');
    expect(Redis5.Cluster.prototype.sendCommand).not.toBe(unwrapped.cluster);
    await app?.close();
    app = undefined;
    expect(Redis5.prototype.sendCommand).toBe(unwrapped.redis);
    expect(Redis5.Cluster.prototype.sendCommand).toBe(unwrapped.cluster);
  });
});
