import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  getFreePort,
  provideRedis,
  startPrivateRedis,
  waitFor,
  type TestRedis,
} from '@redisx/testing';
import { StreamLogger } from '../logging/stream-logger';
import type { NflogEntry } from '../notify';
import { RedisDeliveries } from './redis-deliveries';

const T0 = Date.UTC(2026, 0, 5, 12);
const HOUR = 3_600_000;
const RECEIVER = { groupName: 'hook', integration: 'webhook', idx: 0 };
const GROUP = '{}:{alertname="G"}';

/** An entry of G as the notification log keeps it, sent at T0 + `at`, living two hours. */
function entry(at: number, firing: string[], resolved: string[] = []): NflogEntry {
  return {
    groupKey: GROUP,
    receiver: RECEIVER,
    timestamp: T0 + at,
    firingAlerts: firing,
    resolvedAlerts: resolved,
    expiresAt: T0 + at + 2 * HOUR,
  };
}

describe('RedisDeliveries', () => {
  let redis: TestRedis;
  let client: Redis;
  let lines: string[];
  let prefix: string;
  const logger = () => new StreamLogger('debug', 'logfmt', (line) => lines.push(line));
  const deliveries = (connection: Redis) =>
    new RedisDeliveries(connection, prefix, 'replica-1', logger());

  beforeAll(async () => {
    redis = await provideRedis();
    client = new Redis(redis.url);
  });

  beforeEach(() => {
    lines = [];
    prefix = `test:${randomUUID()}`;
  });

  afterEach(async () => {
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length > 0) await client.del(...keys);
  });

  afterAll(async () => {
    await client?.quit();
    await redis?.stop();
  });

  it.each([
    ['nothing recorded yet', [entry(0, ['a'])], entry(0, ['a'])],
    [
      'a later delivery replaces it',
      [entry(0, ['a']), entry(1000, [], ['a'])],
      entry(1000, [], ['a']),
    ],
    ['an earlier one does not', [entry(1000, [], ['a']), entry(0, ['a'])], entry(1000, [], ['a'])],
    ['one as recent does not', [entry(0, ['a']), entry(0, ['b'])], entry(0, ['a'])],
  ])('keeps the latest delivery: %s', async (_case, recorded, latest) => {
    const shared = deliveries(client);
    for (const e of recorded) await shared.record(e);
    expect(await shared.latest(GROUP, RECEIVER)).toEqual({ entry: latest, attempt: false });
    expect(await shared.latest(GROUP, { ...RECEIVER, idx: 1 })).toBeUndefined();
    expect(await shared.latest('{}:{alertname="H"}', RECEIVER)).toBeUndefined();
  });

  it.each([
    ['an attempt with no record counts', [], [entry(0, ['a'])], [], entry(0, ['a']), true],
    [
      'an attempt later than the record counts',
      [entry(0, ['a'])],
      [entry(1000, [], ['a'])],
      [],
      entry(1000, [], ['a']),
      true,
    ],
    ['its record replaces it', [entry(0, ['a'])], [entry(0, ['a'])], [], entry(0, ['a']), false],
    [
      'a withdrawn attempt does not',
      [entry(0, ['b'])],
      [entry(1000, ['a'])],
      [entry(1000, ['a'])],
      entry(0, ['b']),
      false,
    ],
    [
      'withdrawing another attempt does nothing',
      [],
      [entry(1000, ['a'])],
      [entry(1000, ['b'])],
      entry(1000, ['a']),
      true,
    ],
  ])(
    'reads the latest attempt too: %s',
    async (_case, recorded, attempted, withdrawn, latest, attempt) => {
      const shared = deliveries(client);
      for (const e of recorded) await shared.record(e);
      for (const e of attempted) await shared.attempt(e);
      for (const e of withdrawn) await shared.withdraw(e);
      expect(await shared.latest(GROUP, RECEIVER)).toEqual({ entry: latest, attempt });
    },
  );

  it("withdraws only this replica's attempt", async () => {
    await deliveries(client).attempt(entry(0, ['a']));
    await new RedisDeliveries(client, prefix, 'replica-2', logger()).withdraw(entry(0, ['a']));
    expect((await deliveries(client).latest(GROUP, RECEIVER))?.entry).toEqual(entry(0, ['a']));
  });

  it('lets the key live as long as the entry, and names the replica that sent it', async () => {
    await deliveries(client).record(entry(0, ['a']));
    const [key] = await client.keys(`${prefix}:nflog:entry:*`);
    expect(await client.hget(key, 'replica')).toBe('replica-1');
    const ttl = await client.pttl(key);
    expect(ttl).toBeGreaterThan(2 * HOUR - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * HOUR);
  });

  it('ignores what it cannot read', async () => {
    const shared = deliveries(client);
    await shared.record(entry(0, ['a']));
    const [key] = await client.keys(`${prefix}:nflog:entry:*`);
    await client.hset(key, 'entry', '{"groupKey":');
    expect(await shared.latest(GROUP, RECEIVER)).toBeUndefined();
    expect(lines.join('\n')).toMatch(/ignoring an unreadable delivery of the cluster/);
  });

  it('without Redis, lets the flush go on and records the delivery once Redis is back', async () => {
    const port = await getFreePort();
    const offline = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null });
    offline.on('error', () => undefined);
    let restarted: TestRedis | undefined;
    try {
      const shared = deliveries(offline);
      const started = Date.now();
      expect(await shared.latest(GROUP, RECEIVER)).toBeUndefined();
      await shared.record(entry(0, ['a']));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(lines.join('\n')).toMatch(/reading the deliveries of the cluster failed/);
      expect(lines.join('\n')).toMatch(/Redis is slow to record a delivery/);
      restarted = await startPrivateRedis(port);
      const observer = new Redis({ port, host: '127.0.0.1' });
      try {
        await waitFor(
          'the delivery to be recorded',
          async () => (await observer.keys(`${prefix}:nflog:entry:*`)).length === 1,
        );
        expect((await deliveries(observer).latest(GROUP, RECEIVER))?.entry).toEqual(
          entry(0, ['a']),
        );
      } finally {
        await observer.quit();
      }
    } finally {
      offline.disconnect();
      await restarted?.stop();
    }
  });
});
