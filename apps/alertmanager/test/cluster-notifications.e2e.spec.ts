import { startPrivateRedis, waitFor, type TestRedis } from '@redisx/testing';
import {
  postToAll,
  startReplicas,
  webhookConfig,
  type ClusterReplicas,
} from './support/cluster-replicas';
import { metricValue } from './support/server-process';
import { WebhookCollector } from './support/webhook-collector';

/**
 * Three replicas joined through one Redis, each given the same alerts (as Prometheus sends to
 * every replica): each notification reaches the receiver once, over firing, repeat and
 * resolution, and through a receiver that first fails (503, then 200). The other replicas lose
 * the claim or find the notification in the shared log, and count it.
 */
describe('each notification sent once by three replicas', () => {
  let redis: TestRedis;
  let cluster: ClusterReplicas;
  let hook: WebhookCollector;

  const post = (alerts: unknown[]) => postToAll(cluster.list, alerts);
  const deliveries = (path: string) => hook.to(path);
  const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  beforeAll(async () => {
    redis = await startPrivateRedis();
    hook = await new WebhookCollector().start();
    // The flaky receiver answers 503 to its first request, then 200.
    hook.failNext('/flaky', 1, 503);
    cluster = await startReplicas(
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
      redis.url,
      3,
    );
  }, 30_000);

  afterAll(async () => {
    await cluster?.stop();
    await hook.stop();
    await redis?.stop();
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
    for (const r of cluster.list) {
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

/**
 * Redis stopped and started again: the replicas keep notifying while it is down (each sends
 * without a claim, counted as `unavailable`), a silence created during the outage reaches the
 * other replicas once Redis is back, and notifications are claimed again.
 */
describe('replicas through a Redis outage', () => {
  let redis: TestRedis;
  let cluster: ClusterReplicas;
  let hook: WebhookCollector;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    hook = await new WebhookCollector().start();
    cluster = await startReplicas(webhookConfig(`${hook.url}/hook`), redis.url, 2);
  }, 30_000);

  afterAll(async () => {
    await cluster?.stop();
    await hook.stop();
    await redis?.stop();
  });

  it('keeps notifying while Redis is down and converges once it is back', async () => {
    const replicas = cluster.list;
    const [a, b] = replicas;
    await redis.stop();
    await postToAll(replicas, [{ labels: { alertname: 'DuringOutage' } }]);
    // Both send: availability first, and each says so in its metrics.
    await hook.waitFor('/hook', 2);
    for (const r of cluster.list) {
      const text = await (await fetch(`${r.url}/metrics`)).text();
      expect(
        metricValue(
          text,
          'alertmanager_cluster_notification_claims_total{integration="webhook",outcome="unavailable"}',
        ),
      ).toBeGreaterThanOrEqual(1);
    }
    const res = await fetch(`${a.url}/api/v2/silences`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        matchers: [{ name: 'alertname', value: 'Later', isRegex: false, isEqual: true }],
        startsAt: new Date().toISOString(),
        endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        createdBy: 'test',
        comment: 'made while Redis was down',
      }),
    });
    expect(res.status).toBe(200);
    const { silenceID } = (await res.json()) as { silenceID: string };
    redis = await startPrivateRedis(redis.port);
    await waitFor(
      'the silence to reach b',
      async () =>
        ((await (await fetch(`${b.url}/api/v2/silences`)).json()) as { id: string }[]).some(
          (s) => s.id === silenceID,
        ),
      20_000,
    );
    // Claimed again: a new alert given to both is sent once.
    await postToAll(replicas, [{ labels: { alertname: 'AfterOutage' } }]);
    const after = () =>
      hook.to('/hook').filter((d) => d.body.groupLabels['alertname'] === 'AfterOutage');
    await waitFor('the alert after the outage', async () => after().length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(after()).toHaveLength(1);
  }, 60_000);
});
