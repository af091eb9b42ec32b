import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPrivateRedis, type TestRedis } from '@redisx/testing';
import { metricValue, startServerProcess, type ServerProcess } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

/**
 * Three replicas joined through one Redis, each given the same alerts (as Prometheus sends to
 * every replica): each notification reaches the receiver once, over firing, repeat and
 * resolution, and through a receiver that first fails (503, then 200). The other replicas lose
 * the claim or find the notification in the shared log, and count it.
 */
describe('each notification sent once by three replicas', () => {
  let redis: TestRedis;
  let dir: string;
  let hook: WebhookCollector;
  const replicas: ServerProcess[] = [];

  const post = (alerts: unknown[]) =>
    Promise.all(
      replicas.map(async (r) => {
        const res = await fetch(`${r.url}/api/v2/alerts`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(alerts),
        });
        expect(res.status).toBe(200);
      }),
    );
  const deliveries = (path: string) => hook.to(path);
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    redis = await startPrivateRedis();
    dir = await mkdtemp(join(tmpdir(), 'am-cluster-notify-'));
    hook = await new WebhookCollector().start();
    // The flaky receiver answers 503 to its first request, then 200.
    hook.failNext('/flaky', 1, 503);
    await writeFile(
      join(dir, 'am.yml'),
      `route:
  receiver: hook
  group_by: [alertname]
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 4s
  routes:
    - matchers: [receiver="flaky"]
      receiver: flaky
      repeat_interval: 1h
receivers:
  - name: hook
    webhook_configs:
      - url: ${hook.url}/hook
        send_resolved: true
  - name: flaky
    webhook_configs:
      - url: ${hook.url}/flaky
`,
    );
    for (const name of ['a', 'b', 'c']) {
      replicas.push(
        await startServerProcess(
          join(dir, 'am.yml'),
          [`--cluster.redis-url=${redis.url}`],
          join(dir, name),
        ),
      );
    }
  }, 30_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await hook.stop();
    await redis?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends the firing notification, its repeats and its resolution once each', async () => {
    const startsAt = new Date().toISOString();
    await post([{ labels: { alertname: 'Once' }, startsAt }]);
    await hook.waitFor('/hook', 1);
    // Two repeat intervals: two repeats, one each.
    await settle(9000);
    const firing = deliveries('/hook');
    expect(firing.every((d) => d.body.status === 'firing')).toBe(true);
    expect(firing.length).toBeGreaterThanOrEqual(2);
    expect(firing.length).toBeLessThanOrEqual(3);
    // A duplicate would come within moments of its original; repeats come a repeat interval apart.
    const gaps = firing.slice(1).map((d, i) => d.at - firing[i].at);
    expect(gaps.every((gap) => gap >= 3000)).toBe(true);
    await post([{ labels: { alertname: 'Once' }, startsAt, endsAt: new Date().toISOString() }]);
    await hook.waitFor('/hook', firing.length + 1);
    await settle(3000);
    const all = deliveries('/hook');
    expect(all.filter((d) => d.body.status === 'resolved')).toHaveLength(1);
    expect(all).toHaveLength(firing.length + 1);
  }, 40_000);

  it('retries a failing receiver from the replica that claimed it, and sends once', async () => {
    await post([{ labels: { alertname: 'Flaky', receiver: 'flaky' } }]);
    await hook.waitFor('/flaky', 1);
    await settle(4000);
    // After the 503, the retry of the replica that claimed it; no other replica sends.
    expect(deliveries('/flaky')).toHaveLength(1);
  }, 30_000);

  it('counts the claims: one replica won each notification, the others lost it', async () => {
    let won = 0;
    let lost = 0;
    for (const r of replicas) {
      const text = await (await fetch(`${r.url}/metrics`)).text();
      won +=
        metricValue(
          text,
          'alertmanager_cluster_notification_claims_total{integration="webhook",outcome="won"}',
        ) ?? 0;
      lost +=
        metricValue(
          text,
          'alertmanager_cluster_notification_claims_total{integration="webhook",outcome="lost"}',
        ) ?? 0;
    }
    expect(won).toBe(deliveries('/hook').length + deliveries('/flaky').length);
    expect(lost).toBeGreaterThan(0);
  });
});
