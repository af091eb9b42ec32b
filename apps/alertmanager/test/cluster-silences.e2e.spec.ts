import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrivateRedis, waitFor, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import { startServerProcess, type ServerProcess } from './support/server-process';

type SilenceView = { id: string; status: { state: string }; comment: string };

/**
 * Replicas joined by `--cluster.redis-url` share their silences: one created on a replica mutes
 * on the others within a second, an update or expiry on another replica wins everywhere (the
 * later update), and a replica that was down catches up when it comes back. The Redis server is
 * the test's own, so its streams start empty.
 */
describe('silences shared by replicas through Redis', () => {
  let redis: TestRedis;
  let dir: string;
  const replicas: ServerProcess[] = [];

  const start = async (name: string) =>
    startServerProcess(join(dir, 'am.yml'), [`--cluster.redis-url=${redis.url}`], join(dir, name));
  const silences = async (server: ServerProcess) =>
    (await (await fetch(`${server.url}/api/v2/silences`)).json()) as SilenceView[];
  const create = async (server: ServerProcess, comment: string, id?: string) => {
    const res = await fetch(`${server.url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        ...(id ? { id } : {}),
        matchers: [{ name: 'alertname', value: 'Down', isRegex: false, isEqual: true }],
        startsAt: new Date(Date.now() - 1000).toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: 'test',
        comment,
      }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { silenceID: string }).silenceID;
  };

  beforeAll(async () => {
    redis = await startPrivateRedis();
    dir = await mkdtemp(join(tmpdir(), 'am-cluster-'));
    await writeFile(join(dir, 'am.yml'), 'route:\n  receiver: none\nreceivers:\n  - name: none\n');
    replicas.push(await start('a'), await start('b'));
  }, 30_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows both replicas as ready peers in /api/v2/status and the members metric', async () => {
    type Status = { cluster: { name: string; status: string; peers: { name: string }[] } };
    const status = async (r: ServerProcess) =>
      ((await (await fetch(`${r.url}/api/v2/status`)).json()) as Status).cluster;
    await waitFor(
      'each replica to see the other',
      async () => (await Promise.all(replicas.map(status))).every((c) => c.peers.length === 2),
      15_000,
    );
    const [a, b] = await Promise.all(replicas.map(status));
    expect(a.status).toBe('ready');
    expect(a.name).not.toBe(b.name);
    expect(a.peers.map((p) => p.name).sort()).toEqual([a.name, b.name].sort());
    const metrics = await (await fetch(`${replicas[0].url}/metrics`)).text();
    expect(metrics).toMatch(/^alertmanager_cluster_members 2$/m);
    expect(metrics).toMatch(/^alertmanager_cluster_enabled 1$/m);
  }, 20_000);

  it('shows a silence created on one replica on the other within a second', async () => {
    const [a, b] = replicas;
    const id = await create(a, 'maintenance');
    const started = Date.now();
    await waitFor('the silence on b', async () => (await silences(b)).some((s) => s.id === id));
    expect(Date.now() - started).toBeLessThan(1000);
    const onB = (await silences(b)).find((s) => s.id === id);
    expect(onB).toMatchObject({ comment: 'maintenance', status: { state: 'active' } });
  });

  it('mutes the alert on the other replica within a second', async () => {
    const [a, b] = replicas;
    await fetch(`${b.url}/api/v2/alerts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([{ labels: { alertname: 'Down', instance: 'x' } }]),
    });
    type AlertView = { labels: { instance?: string }; status: { state: string } };
    const state = async () =>
      ((await (await fetch(`${b.url}/api/v2/alerts`)).json()) as AlertView[]).find(
        (x) => x.labels.instance === 'x',
      )?.status.state;
    await create(a, 'mute x');
    const started = Date.now();
    await waitFor('the alert on b to be silenced', async () => (await state()) === 'suppressed');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('takes an expiry made on the other replica everywhere', async () => {
    const [a, b] = replicas;
    const id = await create(a, 'to expire');
    await waitFor('the silence on b', async () => (await silences(b)).some((s) => s.id === id));
    expect((await fetch(`${b.url}/api/v2/silence/${id}`, { method: 'DELETE' })).status).toBe(200);
    await waitFor('the expiry on a', async () =>
      (await silences(a)).some((s) => s.id === id && s.status.state === 'expired'),
    );
  });

  it('catches a replica up on what changed while it was down', async () => {
    const b = replicas.pop() as ServerProcess;
    await b.stop();
    const [a] = replicas;
    const id = await create(a, 'while b was down');
    const back = await start('b');
    replicas.push(back);
    await waitFor('b to catch up', async () => (await silences(back)).some((s) => s.id === id));
    const ids = (await silences(a)).map((s) => s.id).sort();
    await waitFor(
      'both to hold the same silences',
      async () =>
        JSON.stringify((await silences(back)).map((s) => s.id).sort()) === JSON.stringify(ids),
    );
  });

  it('gives a replica every silence even when the stream no longer reaches back', async () => {
    const [a] = replicas;
    const id = await create(a, 'before the trim');
    // The stream loses every entry (trimmed, or Redis replaced); the kept states remain.
    const redisClient = new Redis(redis.url);
    await redisClient.xtrim('redisx:alertmanager:silences', 'MAXLEN', 0);
    redisClient.disconnect();
    const late = await start('c');
    replicas.push(late);
    await waitFor('the late replica to hold the silence', async () =>
      (await silences(late)).some((s) => s.id === id && s.comment === 'before the trim'),
    );
  });
});
