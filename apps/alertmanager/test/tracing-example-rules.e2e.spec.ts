import { waitFor, type TestRedis } from '@redisx/testing';
import Redis from 'ioredis';
import {
  startTracingExampleStack,
  type TracingExampleStack,
} from './support/tracing-example-stack';

/**
 * The specification's HighRedisErrorRate and HighRedisLatency driven by real Redis traffic: the
 * tracing example app (`@redisx/tracing` with the `myapp_redis_` metrics) runs against a Redis
 * server of the test's own, the server scrapes its `/metrics` and evaluates the bundled rules
 * (intervals and `for` cut to seconds). Requests whose INCR fails on a non-numeric counter raise
 * the error rate; a script keeping Redis busy makes the app's commands wait: each alert fires and
 * reaches a webhook through the routing tree.
 */
describe('the tracing example app driving the specification rules', () => {
  let stack: TracingExampleStack;
  let redis: TestRedis;
  let exampleUrl = '';
  let hook: TracingExampleStack['hook'];
  let server: TracingExampleStack['server'];

  beforeAll(async () => {
    stack = await startTracingExampleStack();
    ({ redis, exampleUrl, hook, server } = stack);
  }, 30_000);

  afterAll(() => stack?.stop());

  it('keeps HighRedisErrorRate and HighRedisLatency quiet while every command succeeds quickly', async () => {
    const traffic = setInterval(
      () => void fetch(`${exampleUrl}/orders/good`).catch(() => undefined),
      50,
    );
    try {
      await waitFor(
        'rules evaluated on scraped traffic',
        async () => {
          const res = await fetch(
            `${server.url}/api/v1/query?query=sum(myapp_redis_commands_total)`,
          );
          const body = (await res.json()) as { data: { result: { value: [number, string] }[] } };
          return Number(body.data.result[0]?.value[1] ?? 0) > 200;
        },
        20_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 4000));
    } finally {
      clearInterval(traffic);
    }
    const rules = (await (await fetch(`${server.url}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; state: string }[] }[] };
    };
    const states = rules.data.groups
      .flatMap((g) => g.rules)
      .filter((r) => r.name === 'HighRedisErrorRate' || r.name === 'HighRedisLatency')
      .map((r) => [r.name, r.state]);
    expect(states).toEqual([
      ['HighRedisLatency', 'inactive'],
      ['HighRedisErrorRate', 'inactive'],
    ]);
    expect(hook.to('/alerts')).toEqual([]);
  }, 40_000);

  it("fires HighRedisErrorRate when the app's Redis commands fail", async () => {
    const client = new Redis(redis.url);
    // INCR on a counter that is not a number fails: the app's pipeline gets an ERR reply.
    await client.set('example:order:bad:views', 'not-a-number');
    client.disconnect();
    const traffic = setInterval(() => {
      void fetch(`${exampleUrl}/orders/good`).catch(() => undefined);
      void fetch(`${exampleUrl}/orders/bad`).catch(() => undefined);
    }, 50);
    try {
      await waitFor(
        'HighRedisErrorRate at the webhook',
        async () =>
          hook
            .to('/alerts')
            .some((d) => d.body.alerts.some((a) => a.labels['alertname'] === 'HighRedisErrorRate')),
        25_000,
      );
    } finally {
      clearInterval(traffic);
    }
    const delivery = hook
      .to('/alerts')
      .find((d) => d.body.alerts.some((a) => a.labels['alertname'] === 'HighRedisErrorRate'));
    const alert = delivery?.body.alerts.find((a) => a.labels['alertname'] === 'HighRedisErrorRate');
    expect(alert?.labels).toEqual({ alertname: 'HighRedisErrorRate', severity: 'critical' });
    expect(alert?.annotations['summary']).toBe('Redis commands are failing');
    expect(alert?.annotations['description']).toMatch(
      /^\d+(\.\d+)?% of Redis commands failed over the last 5 minutes \(threshold 1%\)\.$/,
    );
  }, 40_000);

  it("fires HighRedisLatency when the app's Redis commands wait behind a busy server", async () => {
    // A script that keeps Redis busy for 200 ms at a time: the app's commands queue behind it.
    const blocker = new Redis(redis.url);
    const busy =
      "local s = redis.call('TIME') local from = s[1] * 1e6 + s[2] " +
      "repeat local n = redis.call('TIME') until n[1] * 1e6 + n[2] - from >= tonumber(ARGV[1])";
    let blocking = true;
    const block = async () => {
      while (blocking) {
        await blocker.eval(busy, 0, 200_000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const blocked = block();
    const traffic = setInterval(
      () => void fetch(`${exampleUrl}/orders/good`).catch(() => undefined),
      50,
    );
    const latency = () =>
      hook
        .to('/alerts')
        .flatMap((d) => d.body.alerts)
        .find((a) => a.labels['alertname'] === 'HighRedisLatency');
    try {
      await waitFor('HighRedisLatency at the webhook', async () => latency() !== undefined, 25_000);
    } finally {
      clearInterval(traffic);
      blocking = false;
      await blocked;
      blocker.disconnect();
    }
    expect(latency()?.labels).toEqual({ alertname: 'HighRedisLatency', severity: 'warning' });
    expect(latency()?.annotations['summary']).toBe('Redis commands are slow');
    // humanizeDuration of the 95th percentile: tens of milliseconds, above the 50ms threshold.
    expect(latency()?.annotations['description']).toMatch(
      /^95% of Redis commands took less than \d+(\.\d+)?ms over the last 5 minutes \(threshold 50ms\)\.$/,
    );
  }, 40_000);
});
